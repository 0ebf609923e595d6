import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd';
import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { addNoticeCloser, hasFeedback, queryClient, setFeedback } from '../api/index.ts';
import { i18n, loadedAntdLocale } from '../i18n/index.ts';
import { useDarkContent, useLayoutSettings } from '../layout-settings/index.ts';

// antd's context: loaded by route (every screen but the login page) and by the login page's rarer parts (the phone
// tab, the second step, a notice); antd's and dayjs's texts are in before it draws (loadWidgetTexts).

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
 * The antd theme of the console: the primary colour of the layout settings (SPEC section 9 default #1890FF), light or
 * dark by the settings drawer's choice. Dialogs, drawers, menus and notices appear without animation for people
 * whose system asks for reduced motion (WCAG 2.3.3).
 */
export function consoleTheme({ primary, dark, reducedMotion }: { primary: string; dark: boolean; reducedMotion: boolean }) {
  return {
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: { colorPrimary: primary, colorInfo: primary, colorLink: primary, borderRadius: 6, motion: !reducedMotion },
  } satisfies ThemeConfig;
}

function useTheme() {
  const primary = useLayoutSettings((s) => s.settings.primaryColor);
  const dark = useDarkContent();
  const reducedMotion = usePrefersReducedMotion();
  return useMemo(() => consoleTheme({ primary, dark, reducedMotion }), [primary, dark, reducedMotion]);
}

/** How many messages, and how many notifications, are on screen at once; the oldest makes way for a new one. */
export const TOAST_LIMIT = 3;

// Lets the request layer show notices and modals inside the themed, localised antd context (unless a UI is
// registered already: a test's).
function FeedbackBridge({ onReady }: { onReady: () => void }) {
  const { notification, modal, message } = AntApp.useApp();
  useEffect(() => {
    const unregister = hasFeedback()
      ? undefined
      : setFeedback({
          notify: (kind, title, description, durationSeconds) => notification[kind]({ title, description, duration: durationSeconds }),
          modal: (kind, props) => void modal[kind](props),
          close: () => {
            notification.destroy();
            message.destroy();
          },
        });
    onReady();
    return unregister;
  }, [notification, modal, message, onReady]);
  return null;
}

// A screen's own messages (App.useApp) close with the notices when a person moves on.
function NoticeCloser() {
  const { notification, message } = AntApp.useApp();
  useEffect(
    () =>
      addNoticeCloser(() => {
        notification.destroy();
        message.destroy();
      }),
    [notification, message],
  );
  return null;
}

/**
 * The themed, localised antd context and the query cache around `children`; notices and modals of the request layer
 * go to an antd context of their own (mountFeedbackRoot), which outlives the screens.
 */
export function AntdProviders({ children }: { children?: ReactNode }) {
  useEffect(() => {
    if (!hasFeedback()) void mountFeedbackRoot();
  }, []);
  return (
    <ThemedApp>
      <NoticeCloser />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ThemedApp>
  );
}

function ThemedApp({ children }: { children: ReactNode }) {
  const theme = useTheme();
  return (
    <ConfigProvider locale={loadedAntdLocale()} theme={theme} wave={{ disabled: !theme.token.motion }} button={{ autoInsertSpace: false }}>
      {/* a few toasts at a time: a burst of saves must not bury the screen they report on */}
      <AntApp message={{ maxCount: TOAST_LIMIT }} notification={{ maxCount: TOAST_LIMIT }}>
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

let feedbackRoot: Promise<void> | null = null;

/** The antd context of the request layer's notices and modals: mounted once, beside the pages. */
export function mountFeedbackRoot(): Promise<void> {
  feedbackRoot ??= new Promise<void>((resolve) => {
    const host = document.createElement('div');
    document.body.append(host);
    createRoot(host).render(
      <I18nextProvider i18n={i18n}>
        <ThemedApp>
          <FeedbackBridge onReady={resolve} />
        </ThemedApp>
      </I18nextProvider>,
    );
  });
  return feedbackRoot;
}
