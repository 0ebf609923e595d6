import { useSyncExternalStore } from 'react';
import { isDarkContent } from './layout-settings.ts';
import { useLayoutSettings } from './layout-settings-store.ts';

const PREFERS_DARK = '(prefers-color-scheme: dark)';
const darkQuery = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(PREFERS_DARK) : null);

/** Whether the operating system asks for dark colours; follows a change while the console is open. */
function usePrefersDark(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = darkQuery();
      query?.addEventListener('change', changed);
      return () => query?.removeEventListener('change', changed);
    },
    () => darkQuery()?.matches ?? false,
  );
}

/** Whether the console is drawn dark right now (the settings drawer's choice, or the system's). */
export function useDarkContent(): boolean {
  const contentTheme = useLayoutSettings((s) => s.settings.contentTheme);
  return isDarkContent(contentTheme, usePrefersDark());
}

/**
 * Marks the page light or dark (`<html data-theme>`, and the browser's own controls and scrollbars through
 * color-scheme): the console's CSS variables (global.css) follow it, also where no antd context is drawn.
 */
export function applyContentTheme(dark: boolean): void {
  const root = document.documentElement;
  root.dataset.theme = dark ? 'dark' : 'light';
  root.style.colorScheme = dark ? 'dark' : 'light';
}

/** The stored choice, before the first render: a dark console does not flash light at start. */
export function initialDarkContent(): boolean {
  return isDarkContent(useLayoutSettings.getState().settings.contentTheme, darkQuery()?.matches ?? false);
}
