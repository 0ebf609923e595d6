import { describe, expect, it, vi } from 'vitest';
import { onAppEvent } from './app-events.ts';
import { dispatchRealtimeMessage } from './use-realtime-channel.tsx';

describe('dispatchRealtimeMessage', () => {
  it('turns pushes into app events and device notifications', () => {
    const seen: string[] = [];
    const offs = [
      onAppEvent('noticesChanged', (p) => seen.push(`notices:${p.msgId}`)),
      onAppEvent('deviceConnection', (p) => seen.push(`device:${p.connected}:${p.msgTxt}`)),
      onAppEvent('doorState', (p) => seen.push(`door:${JSON.stringify(p.data)}`)),
    ];
    const showDevice = vi.fn();
    dispatchRealtimeMessage({ cmd: 'topic', msgId: 'a1' }, showDevice);
    dispatchRealtimeMessage({ cmd: 'user', msgId: 'a2' }, showDevice);
    dispatchRealtimeMessage({ cmd: 'deviceConnect', msgTxt: 'Gate 1' }, showDevice);
    dispatchRealtimeMessage({ cmd: 'deviceDisConnect', msgTxt: 'Gate 2' }, showDevice);
    dispatchRealtimeMessage({ cmd: 'doorState', data: { door: 3, open: true } }, showDevice);
    dispatchRealtimeMessage({ cmd: 'heartcheck' }, showDevice);
    offs.forEach((off) => off());
    expect(seen).toEqual(['notices:a1', 'notices:a2', 'device:true:Gate 1', 'device:false:Gate 2', 'door:{"door":3,"open":true}']);
    expect(showDevice.mock.calls.map(([m, connected]) => [m.msgTxt, connected])).toEqual([
      ['Gate 1', true],
      ['Gate 2', false],
    ]);
  });

  it('shows a device sync once it ended (failure, then recovery), never while it runs', () => {
    const showSync = vi.fn();
    const notice = (state: string, messageKey?: string) => ({ deviceId: 'd1', sn: 'SN-1', state, done: 1, total: 4, overCapacity: 0, ...(messageKey ? { messageKey } : {}) });
    dispatchRealtimeMessage({ cmd: 'deviceSync', msgId: 'd1', msgTxt: 'Gate 1', data: notice('running') }, vi.fn(), showSync);
    dispatchRealtimeMessage({ cmd: 'deviceSync', msgId: 'd1', msgTxt: 'Gate 1', data: notice('disconnected', 'device.disconnected') }, vi.fn(), showSync);
    dispatchRealtimeMessage({ cmd: 'deviceSync', msgId: 'd1', msgTxt: 'Gate 1', data: notice('succeeded', 'device.syncSucceeded') }, vi.fn(), showSync);
    expect(showSync.mock.calls.map(([n, name]) => [n.messageKey, name])).toEqual([
      ['device.disconnected', 'Gate 1'],
      ['device.syncSucceeded', 'Gate 1'],
    ]);
  });
});
