import { MsgCategory, PriorityColor, type UserNotice, type NoticeSummary } from '@isps/contract';
import { Button, Empty, List, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from './format-time.ts';
import styles from './notices.module.css';

// The bell's popover: a chunk of its own, loaded as the bell is first pointed at or opened (notice-bell.tsx).

function NoticeList({ notices, onOpen }: { notices: UserNotice[]; onOpen: (n: UserNotice) => void }) {
  const { t } = useTranslation();
  if (notices.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notices.empty')} />;
  return (
    <List
      className={styles.list}
      size="small"
      dataSource={notices}
      renderItem={(notice) => (
        <List.Item className={styles.item} onClick={() => onOpen(notice)} data-testid="notice-item">
          <div style={{ minWidth: 0, width: '100%' }}>
            <Typography.Text className={styles.itemTitle} title={notice.titile}>
              <Tag color={PriorityColor[notice.priority]}>{t(`notices.priority.${notice.priority}`)}</Tag>
              {notice.titile}
            </Typography.Text>
            <Typography.Text type="secondary" className={styles.itemMeta}>
              {notice.sender ?? ''} {formatTime(notice.sendTime)}
            </Typography.Text>
          </div>
        </List.Item>
      )}
    />
  );
}

/** The popover of the header bell: announcements and system messages on two tabs, and the way to the full list. */
export function NoticePopover({ data, onOpen, onViewMore }: { data: NoticeSummary | undefined; onOpen: (notice: UserNotice) => void; onViewMore: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.popover} data-testid="notice-popover">
      <Tabs
        size="small"
        centered
        items={[
          {
            key: MsgCategory.announcement,
            label: t('notices.announcements', { count: data?.anntMsgTotal ?? 0 }),
            children: <NoticeList notices={data?.anntMsgList ?? []} onOpen={onOpen} />,
          },
          {
            key: MsgCategory.systemMessage,
            label: t('notices.systemMessages', { count: data?.sysMsgTotal ?? 0 }),
            children: <NoticeList notices={data?.sysMsgList ?? []} onOpen={onOpen} />,
          },
        ]}
      />
      <div className={styles.footer}>
        <Button type="link" size="small" onClick={onViewMore}>
          {t('notices.viewMore')}
        </Button>
      </div>
    </div>
  );
}
