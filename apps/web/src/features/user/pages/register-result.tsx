import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import styles from './account.module.css';

export default function RegisterResultPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('registerResult.pageTitle'));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const username = params.get('username') ?? '';
  return (
    <div className={styles.wide}>
      <Result
        className={styles.result}
        status={params.get('approval') ? 'info' : 'success'}
        title={t('registerResult.title', { username })}
        subTitle={params.get('approval') ? t('registerResult.awaitingApproval') : t('registerResult.description')}
        extra={
          <Button type="primary" size="large" onClick={() => navigate('/user/login')}>
            {t('registerResult.toLogin')}
          </Button>
        }
      />
    </div>
  );
}
