import { RealtimeCmd, type KeyOverdueNotice } from '@isps/contract';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppEvent } from '../../shared/realtime/index.ts';

/**
 * A key overdue: a warning that stays until "got it", one per overdue take (the server pushes each once), naming the
 * key, its cabinet, who took it and when. Mounted once in the console frame.
 */
export function KeyOverdueNotices() {
  const { notification } = App.useApp();
  const { t } = useTranslation();
  useAppEvent('realtimeMessage', (m) => {
    if (m.cmd !== RealtimeCmd.keyOverdue) return;
    const notice = m.data as KeyOverdueNotice | undefined;
    if (!notice) return;
    const key = `key-overdue-${notice.alarmId}`;
    notification.warning({
      key,
      placement: 'bottomRight',
      title: t('keys.overdueTitle'),
      description: t('keys.overdue', { key: notice.keyName, device: notice.deviceName, people: notice.peopleName ?? t('keys.someone'), time: notice.takeTime }),
      duration: 0,
      actions: (
        <Button type="primary" size="small" data-key-overdue={notice.keyId} onClick={() => notification.destroy(key)}>
          {t('realtime.gotIt')}
        </Button>
      ),
    });
  });
  return null;
}
