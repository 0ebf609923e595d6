import { Suspense, lazy, type ReactNode } from 'react';
import { setFeedbackLoader } from '../api/index.ts';
import { loadWidgetTexts, storedLanguage } from '../i18n/index.ts';

/** antd's context module, with antd's and dayjs's texts in the active language. */
function loadAntd() {
  return loadWidgetTexts(storedLanguage()).then(() => import('./antd-providers.tsx'));
}

// A notice or modal asked for where no antd context is drawn yet (the login page) mounts one of its own.
setFeedbackLoader(() => loadAntd().then((m) => m.mountFeedbackRoot()));

const LazyAntdProviders = lazy(() => loadAntd().then((m) => ({ default: m.AntdProviders })));

/** antd's themed context (loaded on first use) around `children`; `fallback` shows while it loads. */
export function AntdScope({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <LazyAntdProviders>{children}</LazyAntdProviders>
    </Suspense>
  );
}

/** Starts loading antd's context before it is needed (once a person starts on the login form). */
export function prefetchAntd(): void {
  void loadAntd();
}
