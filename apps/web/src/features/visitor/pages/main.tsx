import { Button, Descriptions, Skeleton, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import { useVisitorInfo } from '../api/get-visitor-info.ts';
import { visitorLogout } from '../api/visitor-logout.ts';
import styles from '../components/visitor-layout.module.css';
import { categoryKey } from '../visitor-labels.ts';
import { clearVisitorSession } from '../visitor-session.ts';

export default function VisitorMainPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('visitor.mainTitle'));
  const info = useVisitorInfo();
  const navigate = useNavigate();

  useEffect(() => {
    if (!info.isError) return;
    clearVisitorSession();
    navigate('/vistor/login', { replace: true });
  }, [info.isError, navigate]);

  if (!info.data) return <Skeleton active />;
  const visitor = info.data;
  return (
    <>
      <Typography.Title level={2} className={styles.title}>
        {t('visitor.welcome', { name: visitor.name })}
      </Typography.Title>
      <Descriptions bordered column={1} size="middle" style={{ marginBottom: 24, background: '#fff' }}>
        <Descriptions.Item label={t('visitor.name')}>{visitor.name}</Descriptions.Item>
        <Descriptions.Item label={t('visitor.idCard')}>{visitor.idCardMasked}</Descriptions.Item>
        <Descriptions.Item label={t('visitor.phone')}>{visitor.phone}</Descriptions.Item>
        <Descriptions.Item label={t('visitor.category')}>{t(categoryKey[visitor.category])}</Descriptions.Item>
        <Descriptions.Item label={t('visitor.status')}>{visitor.status === 1 ? t('visitor.statusNormal') : t('visitor.statusFrozen')}</Descriptions.Item>
        <Descriptions.Item label={t('visitor.linkedUser')}>{visitor.linkedUsername ?? t('visitor.none')}</Descriptions.Item>
      </Descriptions>
      <Button block size="large" onClick={() => void visitorLogout().then(() => navigate('/vistor/login', { replace: true }))}>
        {t('visitor.logout')}
      </Button>
    </>
  );
}
