import { BellOutlined } from '@ant-design/icons';
import type { UserNotice } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Popover } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLayoutSettings } from '../../../shared/layout-settings/index.ts';
import { useAppEvent, useRealtimeChannel } from '../../../shared/realtime/index.ts';
import { lazyDialog, lazyPart } from '../../../shared/ui/lazy-dialog.tsx';
import { noticeKeys, useNoticeSummary } from '../api/list-by-user.ts';
import { useMarkRead } from '../api/mark-read.ts';
import styles from './notices.module.css';

// the popover's lists and the announcement's dialog load as the bell is first pointed at or opened
const NoticePopover = lazyPart(
  () => import('./notice-popover.tsx').then((m) => m.NoticePopover),
  () => <div className={styles.popover} aria-busy="true" />,
);
const AnnouncementDetail = lazyDialog(() =>
  import('./announcement-detail-modal.tsx').then(
    (m) =>
      function AnnouncementDetail({ notice, onClose }: { open: boolean; notice: UserNotice | null; onClose: () => void }) {
        return <m.AnnouncementDetailModal notice={notice} onClose={onClose} />;
      },
  ),
);

/** SPEC section 2: the user's announcement list, opened from the popover. */
export const USER_ANNOUNCEMENT_PATH = '/isps/userAnnouncement';

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

  const closeDetail = useCallback(() => setDetail(null), []);
  const openNotice = (notice: UserNotice) => {
    setOpen(false);
    setDetail(notice);
    markRead.mutate(notice.anntId ?? notice.id);
  };

  const viewMore = () => {
    setOpen(false);
    navigate(USER_ANNOUNCEMENT_PATH);
  };

  return (
    <>
      <Popover
        content={<NoticePopover data={data} onOpen={openNotice} onViewMore={viewMore} />}
        trigger="click"
        placement={mobile ? 'bottom' : 'bottomRight'}
        open={open}
        onOpenChange={setOpen}
        arrow={{ pointAtCenter: true }}
      >
        <span className={styles.bell} onPointerEnter={NoticePopover.prefetch} role="button" aria-label={t('notices.bell')} data-testid="notice-bell" data-count={count}>
          <Badge count={count} size="small" overflowCount={99}>
            <BellOutlined className={styles.bellIcon} />
          </Badge>
        </span>
      </Popover>
      <AnnouncementDetail open={detail !== null} notice={detail} onClose={closeDetail} />
    </>
  );
}
