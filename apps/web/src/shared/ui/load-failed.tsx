import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { LazyResult } from './lazy-result.tsx';

/** What a screen shows when its data could not be read: the error, and a button that reads it again. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <LazyResult
      status="error"
      title={t('crud.loadFailed')}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
