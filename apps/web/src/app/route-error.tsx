import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { browser } from '../shared/api/index.ts';

/** A screen that failed to load or render (e.g. a page chunk after a new release): offer a reload. */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <Result
      status="500"
      title={t('exception.pageFailed')}
      subTitle={t('request.failed')}
      extra={
        <Button type="primary" onClick={() => browser.reload()}>
          {t('exception.reload')}
        </Button>
      }
    />
  );
}
