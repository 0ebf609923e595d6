import { BellOutlined } from '@ant-design/icons';
import { MsgCategory, PriorityColor, type UserNotice } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, List, Popover, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLayoutSettings } from '../../../shared/layout-settings/index.ts';
import { useAppEvent, useRealtimeChannel } from '../../../shared/realtime/index.ts';
import { noticeKeys, useNoticeSummary } from '../api/list-by-user.ts';
import { useMarkRead } from '../api/mark-read.ts';
import { AnnouncementDetailModal } from './announcement-detail-modal.tsx';
import { formatTime } from './format-time.ts';
import styles from './notices.module.css';

/** SPEC section 2: the user's announcement list, opened from the popover. */
export const USER_ANNOUNCEMENT_PATH = '/isps/userAnnouncement';

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

/**
 * The header bell: unread announcements and system messages, reloaded every 6 s and at once on a push. It also
 * keeps the real-time channel open, since it lives exactly as long as the signed-in frame.
 */
export function NoticeBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [detail, setDetail] = useState<UserNotice | null>(null);
  // on a phone the 300 px popover fits on neither side of the bell: centred below it, it is shifted into the window
  const mobile = useLayoutSettings((s) => s.device) === 'mobile';
  useRealtimeChannel();
  const summary = useNoticeSummary(true);
  const markRead = useMarkRead();

  const reload = () => void client.invalidateQueries({ queryKey: noticeKeys.all });
  useAppEvent('noticesChanged', reload);
  useAppEvent('realtimeOpen', reload);

  const data = summary.data;
  const count = (data?.anntMsgTotal ?? 0) + (data?.sysMsgTotal ?? 0);

  const openNotice = (notice: UserNotice) => {
    setOpen(false);
    setDetail(notice);
    markRead.mutate(notice.anntId ?? notice.id);
  };

  const content = (
    <div className={styles.popover} data-testid="notice-popover">
      <Tabs
        size="small"
        centered
        items={[
          {
            key: MsgCategory.announcement,
            label: t('notices.announcements', { count: data?.anntMsgTotal ?? 0 }),
            children: <NoticeList notices={data?.anntMsgList ?? []} onOpen={openNotice} />,
          },
          {
            key: MsgCategory.systemMessage,
            label: t('notices.systemMessages', { count: data?.sysMsgTotal ?? 0 }),
            children: <NoticeList notices={data?.sysMsgList ?? []} onOpen={openNotice} />,
          },
        ]}
      />
      <div className={styles.footer}>
        <Button
          type="link"
          size="small"
          onClick={() => {
            setOpen(false);
            navigate(USER_ANNOUNCEMENT_PATH);
          }}
        >
          {t('notices.viewMore')}
        </Button>
      </div>
    </div>
  );

  return (
    <>
      <Popover
        content={content}
        trigger="click"
        placement={mobile ? 'bottom' : 'bottomRight'}
        open={open}
        onOpenChange={setOpen}
        arrow={{ pointAtCenter: true }}
      >
        <span className={styles.bell} role="button" aria-label={t('notices.bell')} data-testid="notice-bell" data-count={count}>
          <Badge count={count} size="small" overflowCount={99}>
            <BellOutlined className={styles.bellIcon} />
          </Badge>
        </span>
      </Popover>
      <AnnouncementDetailModal notice={detail} onClose={() => setDetail(null)} />
    </>
  );
}
