import { RealtimeCmd, type DevicePresenceNotice, type RealtimeMessage } from '@isps/contract';
import { App } from 'antd';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { DevicePresenceNotices } from './device-presence.ts';
import { showPresence } from './use-realtime-channel.tsx';

const presence = (cmd: 'deviceConnect' | 'deviceDisConnect', devices: Array<[string, string]>): RealtimeMessage => {
  const data: DevicePresenceNotice = { count: devices.length, devices: devices.map(([id, name]) => ({ id, sn: `SN-${id}`, name })), ids: devices.map(([id]) => id) };
  return { cmd: RealtimeCmd[cmd], msgId: devices.length === 1 ? devices[0]![0] : undefined, msgTxt: devices[0]?.[1], data };
};

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

describe('device presence notices', () => {
  it('fold a burst of disconnects into one count and leave by themselves once the devices are back', () => {
    const notices = new DevicePresenceNotices();
    expect(notices.apply(presence('deviceDisConnect', [['d1', 'Gate 1']]), false)).toEqual({ offline: { count: 1, names: ['Gate 1'] }, online: null });
    const burst = notices.apply(presence('deviceDisConnect', [['d2', 'Gate 2'], ['d3', 'Gate 3'], ['d4', 'Gate 4'], ['d1', 'Gate 1']]), false);
    expect(burst.offline).toEqual({ count: 4, names: ['Gate 1', 'Gate 2', 'Gate 3'] });
    const some = notices.apply(presence('deviceConnect', [['d1', 'Gate 1'], ['d2', 'Gate 2']]), true);
    expect(some).toEqual({ offline: { count: 2, names: ['Gate 3', 'Gate 4'] }, online: { count: 2, names: ['Gate 1', 'Gate 2'] } });
    const all = notices.apply(presence('deviceConnect', [['d3', 'Gate 3'], ['d4', 'Gate 4']]), true);
    expect(all.offline).toBeNull();
    expect(all.online?.count).toBe(4);
    notices.backSeen();
    expect(notices.apply(presence('deviceConnect', [['d9', 'Gate 9']]), true).online).toEqual({ count: 1, names: ['Gate 9'] });
  });

  it('show one notice with the count in place of a pile, and take it away when the devices come back', async () => {
    let api: NotificationInstance | null = null;
    function Host() {
      api = App.useApp().notification;
      return null;
    }
    render(
      <App>
        <Host />
      </App>,
    );
    const notices = new DevicePresenceNotices();
    const ui = { notification: api!, t: i18n.t.bind(i18n) };
    act(() => {
      for (let i = 1; i <= 6; i++) showPresence(ui, notices, notices.apply(presence('deviceDisConnect', [[`d${i}`, `Gate ${i}`]]), false));
    });
    await screen.findByText('6 devices disconnected');
    expect(document.querySelectorAll('.ant-notification-notice')).toHaveLength(1);
    // below, away from the header and the controls at the top of drawers
    expect(document.querySelector('.ant-notification-bottomRight .ant-notification-notice')).not.toBeNull();
    expect(screen.getByText('Gate 1, Gate 2, Gate 3 and 3 more')).toBeTruthy();

    act(() => showPresence(ui, notices, notices.apply(presence('deviceConnect', [['d1', 'Gate 1'], ['d2', 'Gate 2'], ['d3', 'Gate 3'], ['d4', 'Gate 4'], ['d5', 'Gate 5']]), true)));
    await screen.findByText('1 device disconnected');
    await screen.findByText('5 devices connected');
    act(() => showPresence(ui, notices, notices.apply(presence('deviceConnect', [['d6', 'Gate 6']]), true)));
    await waitFor(() => expect(screen.queryByText(/disconnected/)).toBeNull());
    await screen.findByText('6 devices connected');
  });
});
