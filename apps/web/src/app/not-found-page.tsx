import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../shared/ui/index.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('exception.pageNotFound'));
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('exception.404')}
      extra={
        <Button type="primary" onClick={() => navigate('/dashboard/analysis')}>
          {t('exception.backHome')}
        </Button>
      }
    />
  );
}
