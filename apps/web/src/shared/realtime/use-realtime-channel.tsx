import { DeviceSyncState, RealtimeCmd, loadServerMessages, realtimePath, type DeviceSyncNotice, type RealtimeMessage } from '@isps/contract';
import { App, Button } from 'antd';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE, reactToFailure } from '../api/index.ts';
import { isLanguage } from '../i18n/language.ts';
import { useSession } from '../session/index.ts';
import { emitAppEvent } from './app-events.ts';
import { DevicePresenceNotices, type PresenceView } from './device-presence.ts';
import { RealtimeClient, realtimeUrl } from './realtime-client.ts';

/** The keys of the two folded presence notices: a new message replaces its notice instead of adding one. */
export const PresenceNoticeKey = { offline: 'device-presence-offline', online: 'device-presence-online' } as const;
/** away from the header and from the controls drawers and dialogs keep at their top */
const PRESENCE_PLACEMENT = 'bottomRight';
/** devices back online are told briefly; devices offline stay told until they are back */
const ONLINE_NOTICE_SECONDS = 4.5;

function namesText(t: TFunction, view: { count: number; names: string[] }): string {
  const rest = view.count - view.names.length;
  return [view.names.join(', '), rest > 0 ? t('realtime.andMore', { count: rest }) : ''].filter(Boolean).join(' ');
}

/**
 * Shows the folded presence notices: one warning naming and counting the devices offline now (it stays until they are
 * back, or until "got it"), and one brief notice of the devices that came back.
 */
export function showPresence(ui: { notification: NotificationInstance; t: TFunction }, presence: DevicePresenceNotices, view: PresenceView): void {
  const { notification, t } = ui;
  if (view.offline) {
    notification.warning({
      key: PresenceNoticeKey.offline,
      placement: PRESENCE_PLACEMENT,
      title: t('realtime.devicesDisconnected', { count: view.offline.count }),
      description: namesText(t, view.offline),
      duration: 0,
      actions: (
        <Button type="primary" size="small" onClick={() => notification.destroy(PresenceNoticeKey.offline)}>
          {t('realtime.gotIt')}
        </Button>
      ),
    });
  } else {
    notification.destroy(PresenceNoticeKey.offline);
  }
  if (view.online) {
    notification.success({
      key: PresenceNoticeKey.online,
      placement: PRESENCE_PLACEMENT,
      title: t('realtime.devicesConnected', { count: view.online.count }),
      description: namesText(t, view.online),
      duration: ONLINE_NOTICE_SECONDS,
      onClose: () => presence.backSeen(),
    });
  }
}

/**
 * SPEC section 4: topic/user reload the notices, device pushes notify and signal, doorState is passed on; a device's
 * people sync that ended (succeeded, device disconnected, distribution failed) is shown with the spec's message.
 */
export function dispatchRealtimeMessage(
  message: RealtimeMessage,
  showDevice: (message: RealtimeMessage, connected: boolean) => void,
  showSync: (notice: DeviceSyncNotice, deviceName: string) => void = () => undefined,
): void {
  const { msgId, msgTxt, data } = message;
  emitAppEvent('realtimeMessage', message);
  switch (message.cmd) {
    case RealtimeCmd.topic:
    case RealtimeCmd.user:
      emitAppEvent('noticesChanged', { msgId, msgTxt });
      return;
    case RealtimeCmd.deviceConnect:
    case RealtimeCmd.deviceDisConnect: {
      const connected = message.cmd === RealtimeCmd.deviceConnect;
      showDevice(message, connected);
      emitAppEvent('deviceConnection', { connected, msgId, msgTxt, data });
      return;
    }
    case RealtimeCmd.doorState:
      emitAppEvent('doorState', { msgId, msgTxt, data });
      return;
    case RealtimeCmd.deviceSync: {
      const notice = data as DeviceSyncNotice | undefined;
      if (notice && notice.state !== DeviceSyncState.running) showSync(notice, msgTxt ?? notice.sn);
      return;
    }
    default:
      // heartcheck answers our heartbeat: nothing to do
      return;
  }
}

/**
 * Keeps the signed-in user's socket open for as long as the calling component is mounted (the console frame);
 * it closes when the session ends. Pushes become app events; device pushes also show a notice, folded into one.
 */
export function useRealtimeChannel(): void {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userInfo?.id);
  const { notification } = App.useApp();
  const { t, i18n } = useTranslation();
  // the socket follows the session only: a new language or notification context must not reconnect it
  const ui = useRef({ notification, t, lang: i18n.language });
  useEffect(() => {
    ui.current = { notification, t, lang: i18n.language };
  });

  useEffect(() => {
    if (!token || !userId) return;
    const presence = new DevicePresenceNotices();
    const showDevice = (message: RealtimeMessage, connected: boolean) => showPresence(ui.current, presence, presence.apply(message, connected));
    const showSync = (notice: DeviceSyncNotice, deviceName: string) => {
      const { lang } = ui.current;
      const kind = notice.state === DeviceSyncState.succeeded ? 'success' : notice.state === DeviceSyncState.disconnected ? 'warning' : 'error';
      // the server's messages in the active language, a chunk loaded with the first notice
      void loadServerMessages(isLanguage(lang) ? lang : 'zh-CN').then((messages: Record<string, string>) =>
        ui.current.notification[kind]({ key: `device-sync-${notice.deviceId}-${notice.state}`, title: messages[notice.messageKey ?? ''] ?? notice.messageKey, description: deviceName }),
      );
    };
    const client = new RealtimeClient({
      url: realtimeUrl(API_BASE, realtimePath(userId), window.location),
      token,
      onOpen: () => emitAppEvent('realtimeOpen', {}),
      // the session ended elsewhere (logout in another tab, freeze, password change): same as a 401 from a call
      onSignedOut: () => reactToFailure(401, ''),
      onMessage: (message) => dispatchRealtimeMessage(message, showDevice, showSync),
    });
    client.start();
    return () => client.stop();
  }, [token, userId]);
}
