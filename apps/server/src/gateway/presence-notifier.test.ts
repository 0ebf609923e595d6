import { RealtimeCmd, type DevicePresenceNotice, type RealtimeMessage } from '@isps/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeHub } from '../platform/realtime/index.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { PresenceNotifier } from './presence-notifier.ts';

/** The hub's one call the notifier makes, recorded. */
function recordingHub(): { hub: RealtimeHub; sent: Array<{ userIds: readonly string[]; message: RealtimeMessage }> } {
  const sent: Array<{ userIds: readonly string[]; message: RealtimeMessage }> = [];
  const hub = { sendToUsers: async (userIds: readonly string[], message: RealtimeMessage) => void sent.push({ userIds, message }) } as unknown as RealtimeHub;
  return { hub, sent };
}

describe('device presence notices', () => {
  let t: TestApp;
  let tenantId: string;
  let adminId: string;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    const admin = await t.app.db.selectFrom('sys_user').select(['id', 'tenant_id']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    adminId = admin.id;
    tenantId = admin.tenant_id!;
  });
  afterAll(() => t.close());

  const change = (id: string, online: boolean, tenant: string | null = tenantId) => ({ id, sn: `SN-${id}`, name: `Gate ${id}`, tenantId: tenant, online });
  const devicesOf = (message: RealtimeMessage) => (message.data as DevicePresenceNotice).devices.map((d) => d.id);

  it('coalesce the changes of one window into one message per direction, a flapping device once in its last state', async () => {
    const { hub, sent } = recordingHub();
    // a window no timer ends during the test: the flush below is the window's end
    const notifier = new PresenceNotifier(t.app.db, hub, { error: () => undefined }, 60_000);
    notifier.changed(change('a', true));
    notifier.changed(change('b', true));
    notifier.changed(change('c', true));
    notifier.changed(change('c', false));
    notifier.changed(change('d', false));
    notifier.changed(change('x', true, null));
    await notifier.flush();
    expect(sent.map((s) => s.message.cmd)).toEqual([RealtimeCmd.deviceConnect, RealtimeCmd.deviceDisConnect]);
    expect(devicesOf(sent[0]!.message)).toEqual(['a', 'b']);
    expect(sent[0]!.message).toMatchObject({ msgTxt: 'Gate a (+1)', data: { count: 2 } });
    expect(devicesOf(sent[1]!.message)).toEqual(['c', 'd']);
    expect(sent.every((s) => s.userIds.includes(adminId))).toBe(true);

    // the next window starts empty: one device is named by its id
    notifier.changed(change('b', false));
    await notifier.flush();
    expect(sent[2]!.message).toMatchObject({ cmd: RealtimeCmd.deviceDisConnect, msgId: 'b', msgTxt: 'Gate b', data: { count: 1 } });
  });

  it('end a window on its own after the window time', async () => {
    const { hub, sent } = recordingHub();
    const notifier = new PresenceNotifier(t.app.db, hub, { error: () => undefined }, 20);
    notifier.changed(change('a', true));
    notifier.changed(change('b', true));
    await expect.poll(() => sent.length).toBe(1);
    expect(devicesOf(sent[0]!.message)).toEqual(['a', 'b']);
  });
});
