import { useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n, storedLanguage } from '../shared/i18n/index.ts';
import { applyContentTheme, initialDarkContent, useDarkContent, useLayoutSettings } from '../shared/layout-settings/index.ts';

// antd's and dayjs's texts come with antd (loadWidgetTexts), the console's messages before the first render
document.documentElement.lang = storedLanguage();
// the stored light or dark choice from the first paint on, the login page's included
applyContentTheme(initialDarkContent());

/** Colour-weak mode inverts the whole page, as the origin console did. */
function useColorWeak() {
  const colorWeak = useLayoutSettings((s) => s.settings.colorWeak);
  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', colorWeak);
  }, [colorWeak]);
}

/** The page follows the light or dark choice (and the system's, when the person follows it) as it changes. */
function useContentTheme() {
  const dark = useDarkContent();
  useEffect(() => {
    applyContentTheme(dark);
  }, [dark]);
}

/** Translations for every page; antd's context and the query cache come by route (AntdScope). */
export function Providers({ children }: { children: ReactNode }) {
  useColorWeak();
  useContentTheme();
  return (
    <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
  );
}
