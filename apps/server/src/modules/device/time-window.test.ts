import { accessAllowedAt } from '@isps/device-sim';
import { TIME_SETTING_CASES } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { timeSettingInForce } from './time-window.ts';

// The server and the simulated devices decide every case of the contract's decision table alike, each through its
// own entry point (the stored text on the server, the delivered text on the device).
describe('time settings: server and simulated device agree', () => {
  it.each(TIME_SETTING_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const text = JSON.stringify(c.setting);
    const site = { timeZone: c.timeZone, holidays: c.holidays ?? [] };
    const at = Date.parse(c.at);
    expect({ server: timeSettingInForce(text, at, site), device: accessAllowedAt(text, at, site) }).toEqual({ server: c.expected, device: c.expected });
  });

  it('an empty setting is permanent and an unreadable one is in force nowhere, on both', () => {
    const site = { timeZone: 'UTC' };
    expect([timeSettingInForce(null, 0, site), accessAllowedAt(null, 0, site)]).toEqual([true, true]);
    expect([timeSettingInForce('{"mode":"custom","periods":[{"start":"9","end":"10"}]}', 0, site), accessAllowedAt('not json', 0, site)]).toEqual([false, false]);
  });
});
