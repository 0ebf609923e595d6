import { RealtimeCmd, type PatrolMissedNotice } from '@isps/contract';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppEvent } from '../../shared/realtime/index.ts';

/** A patrol point missed: a warning that stays until "got it", one per missed point (the server pushes each once). Mounted once in the console frame. */
export function PatrolMissedNotices() {
  const { notification } = App.useApp();
  const { t } = useTranslation();
  useAppEvent('realtimeMessage', (m) => {
    if (m.cmd !== RealtimeCmd.patrolMissed) return;
    const notice = m.data as PatrolMissedNotice | undefined;
    if (!notice) return;
    const key = `patrol-missed-${notice.alarmId}`;
    notification.warning({
      key,
      placement: 'bottomRight',
      title: t('patrol.missedTitle'),
      description: t('patrol.missed', { place: notice.placeName, device: notice.deviceName, route: notice.routeName, time: notice.expectedTime }),
      duration: 0,
      actions: (
        <Button type="primary" size="small" data-patrol-missed={notice.questId} onClick={() => notification.destroy(key)}>
          {t('realtime.gotIt')}
        </Button>
      ),
    });
  });
  return null;
}
