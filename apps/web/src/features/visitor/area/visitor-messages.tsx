import { Badge, Button, Empty, List, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useReadVisitorMessages, useVisitorMessages } from '../api/visitor-messages.ts';

/** The visitor's messages: the hosts' decisions, unread ones marked; reading one marks it read. */
export function VisitorMessageList() {
  const { t } = useTranslation();
  const messages = useVisitorMessages();
  const read = useReadVisitorMessages();
  if (messages.isLoading) return <Skeleton active />;
  const records = messages.data?.records ?? [];
  if (records.length === 0) return <Empty description={t('visitorArea.noMessages')} />;
  return (
    <>
      {(messages.data?.unread ?? 0) > 0 ? (
        <Button size="small" onClick={() => read.mutate(undefined)} style={{ marginBottom: 12 }}>
          {t('visitorArea.readAll')}
        </Button>
      ) : null}
      <List
        data-testid="visitor-messages"
        dataSource={records}
        renderItem={(m) => (
          <List.Item
            style={{ background: 'var(--isps-bg-container)', padding: 12, marginBottom: 8, borderRadius: 8, cursor: m.read ? undefined : 'pointer' }}
            onClick={() => (m.read ? undefined : read.mutate(m.id))}
          >
            <List.Item.Meta
              title={
                <span>
                  {m.read ? null : <Badge status="processing" style={{ marginInlineEnd: 8 }} />}
                  <Typography.Text strong={!m.read}>{m.title}</Typography.Text>
                </span>
              }
              description={
                <>
                  <div>{m.content}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {m.createTime}
                  </Typography.Text>
                </>
              }
            />
          </List.Item>
        )}
      />
    </>
  );
}
