import { Button } from 'antd';
import type { ResultProps } from 'antd';
import { Suspense, lazy, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { browser } from '../shared/api/index.ts';
import styles from './route-error.module.css';

/** The same texts without antd's illustration, while it loads or when it cannot (a new release replaced the chunks). */
function PlainResult({ title, subTitle, extra }: ResultProps) {
  return (
    <div className={styles.plain} role="alert">
      <div className={styles.title}>{title}</div>
      <div className={styles.subTitle}>{subTitle}</div>
      <div className={styles.extra}>{extra}</div>
    </div>
  );
}

// antd's Result carries its three illustrations in one module, a good part of the login page's JavaScript: it loads
// only once a screen has failed.
const IllustratedResult = lazy(
  (): Promise<{ default: ComponentType<ResultProps> }> =>
    import('antd/es/result').then(
      (m) => m,
      () => ({ default: PlainResult }),
    ),
);

/** A screen that failed to load or render (e.g. a page chunk after a new release): offer a reload. */
export function RouteError() {
  const { t } = useTranslation();
  const result: ResultProps = {
    status: '500',
    title: t('exception.pageFailed'),
    subTitle: t('request.failed'),
    extra: (
      <Button type="primary" onClick={() => browser.reload()}>
        {t('exception.reload')}
      </Button>
    ),
  };
  return (
    <Suspense fallback={<PlainResult {...result} />}>
      <IllustratedResult {...result} />
    </Suspense>
  );
}
