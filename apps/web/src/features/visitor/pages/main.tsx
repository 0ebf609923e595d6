import { Badge, Button, Descriptions, Skeleton, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import { useVisitorInfo } from '../api/get-visitor-info.ts';
import { useVisitorMessages } from '../api/visitor-messages.ts';
import { visitorLogout } from '../api/visitor-logout.ts';
import { AskVisitModal } from '../area/ask-visit-modal.tsx';
import { MyVisits } from '../area/my-visits.tsx';
import { VisitorMessageList } from '../area/visitor-messages.tsx';
import styles from '../components/visitor-layout.module.css';
import { categoryKey } from '../visitor-labels.ts';
import { clearVisitorSession } from '../visitor-session.ts';

/** The visitor's own area: his visits (and asking for one), his messages, his details. */
export default function VisitorMainPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('visitor.mainTitle'));
  const info = useVisitorInfo();
  const messages = useVisitorMessages();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    if (!info.isError) return;
    clearVisitorSession();
    navigate('/vistor/login', { replace: true });
  }, [info.isError, navigate]);

  if (!info.data) return <Skeleton active />;
  const visitor = info.data;
  const unread = messages.data?.unread ?? 0;
  return (
    <div className={styles.area}>
      <Typography.Title level={2} className={styles.title}>
        {t('visitor.welcome', { name: visitor.name })}
      </Typography.Title>
      <Tabs
        defaultActiveKey="visits"
        items={[
          {
            key: 'visits',
            label: t('visitorArea.visits'),
            children: (
              <>
                <Button type="primary" onClick={() => setAsking(true)} style={{ marginBottom: 16 }}>
                  {t('visitorArea.ask')}
                </Button>
                <MyVisits />
              </>
            ),
          },
          {
            key: 'messages',
            label: (
              <Badge count={unread} size="small" offset={[8, -2]}>
                <span>{t('visitorArea.messages')}</span>
              </Badge>
            ),
            children: <VisitorMessageList />,
          },
          {
            key: 'profile',
            label: t('visitorArea.profile'),
            children: (
                <Descriptions bordered column={1} size="middle" style={{ marginBottom: 24, background: 'var(--isps-bg-container)' }}>
                  <Descriptions.Item label={t('visitor.name')}>{visitor.name}</Descriptions.Item>
                  <Descriptions.Item label={t('visitor.idCard')}>{visitor.idCardMasked}</Descriptions.Item>
                  <Descriptions.Item label={t('visitor.phone')}>{visitor.phone}</Descriptions.Item>
                  <Descriptions.Item label={t('visitor.category')}>{t(categoryKey[visitor.category])}</Descriptions.Item>
                  <Descriptions.Item label={t('visitor.status')}>{visitor.status === 1 ? t('visitor.statusNormal') : t('visitor.statusFrozen')}</Descriptions.Item>
                  <Descriptions.Item label={t('visitor.linkedUser')}>{visitor.linkedUsername ?? t('visitor.none')}</Descriptions.Item>
                </Descriptions>
            ),
          },
        ]}
      />
      <Button block size="large" style={{ marginTop: 24, maxWidth: 432, display: 'block', marginInline: 'auto' }} onClick={() => void visitorLogout().then(() => navigate('/vistor/login', { replace: true }))}>
        {t('visitor.logout')}
      </Button>
      <AskVisitModal open={asking} onClose={() => setAsking(false)} />
    </div>
  );
}
