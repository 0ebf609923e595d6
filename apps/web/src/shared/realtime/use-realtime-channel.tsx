import { RealtimeCmd, realtimePath, type RealtimeMessage } from '@isps/contract';
import { App, Button } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE, reactToFailure } from '../api/index.ts';
import { useSession } from '../session/index.ts';
import { emitAppEvent } from './app-events.ts';
import { RealtimeClient, realtimeUrl } from './realtime-client.ts';

let deviceNoticeSeq = 0;

/** SPEC section 4: topic/user reload the notices, device pushes notify and signal, doorState is passed on. */
export function dispatchRealtimeMessage(message: RealtimeMessage, showDevice: (message: RealtimeMessage, connected: boolean) => void): void {
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
    default:
      // heartcheck answers our heartbeat: nothing to do
      return;
  }
}

/**
 * Keeps the signed-in user's socket open for as long as the calling component is mounted (the console frame);
 * it closes when the session ends. Pushes become app events; device pushes also show a notification.
 */
export function useRealtimeChannel(): void {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userInfo?.id);
  const { notification } = App.useApp();
  const { t } = useTranslation();
  // the socket follows the session only: a new language or notification context must not reconnect it
  const ui = useRef({ notification, t });
  useEffect(() => {
    ui.current = { notification, t };
  });

  useEffect(() => {
    if (!token || !userId) return;
    const showDevice = (message: RealtimeMessage, connected: boolean) => {
      const { notification, t } = ui.current;
      const key = `device-${++deviceNoticeSeq}`;
      notification[connected ? 'success' : 'warning']({
        key,
        title: t(connected ? 'realtime.deviceConnected' : 'realtime.deviceDisconnected'),
        description: message.msgTxt ?? message.msgId ?? '',
        duration: 0,
        actions: (
          <Button type="primary" size="small" onClick={() => notification.destroy(key)}>
            {t('realtime.gotIt')}
          </Button>
        ),
      });
    };
    const client = new RealtimeClient({
      url: realtimeUrl(API_BASE, realtimePath(userId), window.location),
      token,
      onOpen: () => emitAppEvent('realtimeOpen', {}),
      // the session ended elsewhere (logout in another tab, freeze, password change): same as a 401 from a call
      onSignedOut: () => reactToFailure(401, ''),
      onMessage: (message) => dispatchRealtimeMessage(message, showDevice),
    });
    client.start();
    return () => client.stop();
  }, [token, userId]);
}
