import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { queryClient, setFeedback } from '../shared/api/index.ts';
import { i18n, loadedAntdLocale, storedLanguage } from '../shared/i18n/index.ts';
import { useLayoutSettings } from '../shared/layout-settings/index.ts';

// antd's and dayjs's texts come with the catalogue (loadCatalogue, before the first render)
document.documentElement.lang = storedLanguage();

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const reducedMotionQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION) : null);

/** Whether the operating system asks for less motion; follows a change while the console is open. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = reducedMotionQuery();
      query?.addEventListener('change', changed);
      return () => query?.removeEventListener('change', changed);
    },
    () => reducedMotionQuery()?.matches ?? false,
  );
}

/**
 * The antd theme follows the primary colour of the layout settings (SPEC section 9 default #1890FF). Dialogs,
 * drawers, menus and notices appear without animation for people whose system asks for reduced motion (WCAG 2.3.3).
 */
function useTheme() {
  const primary = useLayoutSettings((s) => s.settings.primaryColor);
  const reducedMotion = usePrefersReducedMotion();
  return useMemo(
    () => ({ token: { colorPrimary: primary, colorInfo: primary, colorLink: primary, borderRadius: 6, motion: !reducedMotion } }),
    [primary, reducedMotion],
  );
}

/** Colour-weak mode inverts the whole page, as the origin console did. */
function useColorWeak() {
  const colorWeak = useLayoutSettings((s) => s.settings.colorWeak);
  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', colorWeak);
  }, [colorWeak]);
}

/** How many messages, and how many notifications, are on screen at once; the oldest makes way for a new one. */
export const TOAST_LIMIT = 3;

// Lets the request layer show notices and modals inside the themed, localised antd context.
function FeedbackBridge() {
  const { notification, modal } = AntApp.useApp();
  useEffect(() => {
    setFeedback({
      notify: (kind, title, description, durationSeconds) => notification[kind]({ title, description, duration: durationSeconds }),
      modal: (kind, props) => void modal[kind](props),
    });
  }, [notification, modal]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const theme = useTheme();
  useColorWeak();
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={loadedAntdLocale()} theme={theme} wave={{ disabled: !theme.token.motion }} button={{ autoInsertSpace: false }}>
        {/* a few toasts at a time: a burst of saves must not bury the screen they report on */}
        <AntApp message={{ maxCount: TOAST_LIMIT }} notification={{ maxCount: TOAST_LIMIT }}>
          <FeedbackBridge />
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </AntApp>
      </ConfigProvider>
    </I18nextProvider>
  );
}
