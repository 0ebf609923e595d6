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
});
