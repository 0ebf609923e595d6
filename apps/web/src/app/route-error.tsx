import { Suspense, lazy, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from '../shared/api/index.ts';
import { PlainResult as PlainTexts } from '../shared/ui/lazy-result.tsx';
import styles from './route-error.module.css';

interface FailureProps {
  status: '500';
  title: string;
  subTitle: string;
  reloadText: string;
  onReload: () => void;
}

/** The same texts without antd's illustration, while it loads or when it cannot (a new release replaced the chunks). */
function PlainResult({ title, subTitle, reloadText, onReload }: FailureProps) {
  return (
    <PlainTexts
      title={title}
      subTitle={subTitle}
      extra={
        <button type="button" className={styles.reload} onClick={onReload}>
          {reloadText}
        </button>
      }
    />
  );
}

// antd (and its Result with three illustrations in one module) loads only once a screen has failed: the login page
// draws without it.
const IllustratedResult = lazy(
  (): Promise<{ default: ComponentType<FailureProps> }> =>
    import('./route-error-result.tsx').then(
      (m) => m.ready.then(() => ({ default: m.IllustratedResult })),
      () => ({ default: PlainResult }),
    ),
);

/** A screen that failed to load or render (e.g. a page chunk after a new release): offer a reload. */
export function RouteError() {
  const { t } = useTranslation();
  const result: FailureProps = {
    status: '500',
    title: t('exception.pageFailed'),
    subTitle: t('request.failed'),
    reloadText: t('exception.reload'),
    onReload: () => browser.reload(),
  };
  return (
    <Suspense fallback={<PlainResult {...result} />}>
      <IllustratedResult {...result} />
    </Suspense>
  );
}
