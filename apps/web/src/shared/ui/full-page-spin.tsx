import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function FullPageSpin() {
  const { t } = useTranslation();
  return (
    <div style={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }} role="status" aria-live="polite">
      <Spin size="large" description={t('app.loading')} />
    </div>
  );
}
