import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessEventEntity, crudPath, deviceEntity, peopleEntity, type AccessEntry } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { adminToken, api, buildTestApp, injectAs, testDialects, type TestApp } from '../../test/harness.ts';
import { computeAccessLists } from './access-lists.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

/** The operation of each `syncPeople` command a device ran, in order. */
const opsOf = (sim: SimDevice, from = 0) => sim.memory.effects.slice(from).filter((e) => e.kind === 'syncPeople').map((e) => (e.payload as { op: string }).op);

describe.each(dialects)('data sync mode of a device on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'isps-sync-mode-'));

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET', path: string, payload?: unknown, lang = 'en-US') {
    return (await injectAs<T>(t.app, admin, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang } })).envelope;
  }
  async function startSim(sn: string, key: string): Promise<SimDevice> {
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', accessDir: dir, doorOpenMs: 0 });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    return sim;
  }
  async function person(name: string, cardNo: string): Promise<string> {
    const added = await call<{ id: string }>('POST', crudPath(peopleEntity, 'add'), { name, cardNo });
    expect(added.success, added.message).toBe(true);
    return added.result.id;
  }
  /** The device holds exactly its access list (ids and versions). */
  async function holdsExactly(sim: SimDevice, deviceId: string): Promise<boolean> {
    const [expected] = (await computeAccessLists(t.app.db, [deviceId])).values();
    const want = [...expected!.entries.values()].map((e) => `${e.id}:${e.version}`).sort();
    return JSON.stringify(sim.access.held().sort()) === JSON.stringify(want);
  }
  const syncCommands = async (deviceId: string) => (await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', deviceId).where('kind', '=', 'syncPeople').execute()).length;

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a device in full mode gets its whole list as a replacement on every change and on reconnect; switching the mode is audited and takes effect at the next change', async () => {
    const sn = uniqueSn('SM');
    const key = await approvedKey(t.app, sn, admin);
    const sim = await startSim(sn, key);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    // a new device sends the differences
    const row = await call<{ syncMode: string }>('GET', `${crudPath(deviceEntity, 'queryById')}?id=${deviceId}`);
    expect(row.result.syncMode).toBe('increment');

    const ann = await person('Ann Full', 'SMCARD0001');
    const ben = await person('Ben Full', 'SMCARD0002');
    const cid = await person('Cid Full', 'SMCARD0003');
    expect((await call('POST', '/deviceRole/add', { roleName: 'Mode door', roleType: '1', deviceIds: deviceId, peopleIds: ann, timeSetting: '{"mode":"permanent"}' })).success).toBe(true);
    const roleId = (await t.app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', 'Mode door').executeTakeFirstOrThrow()).id;
    await until(() => sim.access.entries.has(ann), 15_000, 'Ann on the device');
    expect(opsOf(sim)).toEqual(['upsert']);

    // switched to full: audited, and nothing is sent until the list changes
    const commandsBefore = await syncCommands(deviceId);
    const switched = await call('PUT', crudPath(deviceEntity, 'edit'), { id: deviceId, syncMode: 'full' });
    expect(switched.success, switched.message).toBe(true);
    expect((await call<{ syncMode: string; syncMode_dictText?: string }>('GET', `${crudPath(deviceEntity, 'queryById')}?id=${deviceId}`)).result.syncMode).toBe('full');
    const logs = await t.app.db.selectFrom('sys_log').select(['content', 'log_params']).where('log_params', 'like', '%log.syncMode%').execute();
    expect(logs.map((l) => l.content)).toEqual([expect.stringMatching(/switched to full sync/)]);
    expect(logs[0]!.content).toContain((await t.app.db.selectFrom('sys_device').select('device_name').where('id', '=', deviceId).executeTakeFirstOrThrow()).device_name);
    await t.app.accessSync.settled();
    expect(await syncCommands(deviceId)).toBe(commandsBefore);

    // the device holds someone it should not (a cabinet reassigned without clearing it): the next change replaces everything
    sim.access.apply({ op: 'upsert', people: [{ id: 'stray-person', name: 'Stray', userNo: null, cardNo: 'STRAY0002', palm: {}, times: ['{"mode":"permanent"}'], version: 'x' }] });
    const mark = sim.memory.effects.length;
    expect((await call('PUT', '/deviceRole/edit', { id: roleId, peopleIds: `${ann},${ben}` })).success).toBe(true);
    await until(async () => sim.access.entries.has(ben) && (await holdsExactly(sim, deviceId)), 15_000, 'the full replacement');
    expect(opsOf(sim, mark)).toEqual(['clear', 'upsert']);
    expect(sim.access.entries.has('stray-person')).toBe(false);
    expect((await sim.swipe('STRAY0002')).allowed).toBe(false);
    expect((await sim.swipe('SMCARD0002')).allowed).toBe(true);

    // an unrelated change (another device's role) sends this device nothing
    await person('Dan Elsewhere', 'SMCARD0004');
    await t.app.accessSync.settled();
    expect(opsOf(sim, mark)).toEqual(['clear', 'upsert']);

    // reconnecting: the whole list again, even though nothing changed meanwhile (its flash lost Ann, kept a stray)
    await sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online === 0, 15_000, 'offline');
    const file = join(dir, `${sn}.access.json`);
    const flash = (JSON.parse(readFileSync(file, 'utf8')) as AccessEntry[]).filter((e) => e.id !== ann);
    flash.push({ id: 'stray-again', name: 'Stray', userNo: null, cardNo: 'STRAY0003', palm: {}, times: ['{"mode":"permanent"}'], version: 'x' });
    writeFileSync(file, JSON.stringify(flash));
    const back = await startSim(sn, key);
    await until(async () => opsOf(back).includes('clear') && (await holdsExactly(back, deviceId)), 15_000, 'the replacement on reconnect');
    // a clear, then everyone (a sync that was still being followed when it left may add a second such replacement)
    expect(opsOf(back)[0]).toBe('clear');
    expect(new Set(opsOf(back))).toEqual(new Set(['clear', 'upsert']));
    expect([...back.access.entries.keys()].sort()).toEqual([ann, ben].sort());

    // back to increment (audited in the reader's language): the next change sends the difference only
    expect((await call('PUT', crudPath(deviceEntity, 'edit'), { id: deviceId, syncMode: 'increment' })).success).toBe(true);
    const logList = await call<{ records: Array<{ logContent: string }> }>('GET', '/sys/log/list?logType=2&pageSize=50', undefined, 'zh-CN');
    expect(logList.result.records.map((r) => r.logContent)).toContainEqual(expect.stringContaining('切换为增量同步'));
    const mark2 = back.memory.effects.length;
    expect((await call('PUT', '/deviceRole/edit', { id: roleId, peopleIds: `${ann},${cid}` })).success).toBe(true);
    await until(async () => back.access.entries.has(cid) && (await holdsExactly(back, deviceId)), 15_000, 'the increment');
    expect(opsOf(back, mark2).sort()).toEqual(['remove', 'upsert']);
  });

  it('refuses a sync mode that is not increment or full with a localised message', async () => {
    const device = await t.app.db.selectFrom('sys_device').select('id').executeTakeFirstOrThrow();
    for (const [lang, text] of [['en-US', /sync mode/i], ['zh-CN', /同步模式/], ['ja-JP', /同期モード/]] as const) {
      const answer = await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, crudPath(deviceEntity, 'edit')), payload: { id: device.id, syncMode: 'sometimes' }, headers: { lang } });
      expect(answer.statusCode).toBe(400);
      expect(answer.envelope).toMatchObject({ success: false, code: 400 });
      expect(answer.envelope.message).toMatch(text);
    }
  });
});

// the columns on every engine (the sync engine's tests above skip MariaDB/MySQL, as the other device-link tests do)
describe.each(await testDialects())('sync mode and verdict columns on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await adminToken(t.app);
  });
  afterAll(async () => t.close());

  it('a device is added in increment mode unless full is chosen, and access events keep a verdict and a flag', async () => {
    const add = async (n: number, extra: Record<string, unknown> = {}) => {
      const answer = await injectAs<{ id: string }>(t.app, admin, { method: 'POST', url: api(t.app, crudPath(deviceEntity, 'add')), payload: { deviceName: `Mode ${n}`, sn: `MODE-${n}`, ...extra }, headers: { lang: 'en-US' } });
      expect(answer.envelope.success, answer.envelope.message).toBe(true);
      return (await t.app.db.selectFrom('sys_device').select(['id', 'sync_mode']).where('sn', '=', `MODE-${n}`).executeTakeFirstOrThrow());
    };
    expect((await add(1)).sync_mode).toBe('increment');
    const full = await add(2, { syncMode: 'full' });
    expect(full.sync_mode).toBe('full');
    const listed = await injectAs<{ records: Array<{ sn: string; syncMode: string }> }>(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(deviceEntity, 'list'))}?syncMode=full`, headers: { lang: 'en-US' } });
    expect(listed.envelope.result.records.map((r) => [r.sn, r.syncMode])).toEqual([['MODE-2', 'full']]);

    const now = new Date().toISOString();
    await t.app.db.insertInto('sys_access_event').values({ id: 'ev-1', create_by: 'device', create_time: now, update_by: null, update_time: null, device_id: full.id, seq: 1, event_time: now, kind: 'opening', result: 1, people_id: null, door_id: null, door_no: 1, method: 'card', detail: null, server_verdict: 'refused', flagged: 1, tenant_id: null }).execute();
    await t.app.db.insertInto('sys_access_event').values({ id: 'ev-2', create_by: 'device', create_time: now, update_by: null, update_time: null, device_id: full.id, seq: 2, event_time: now, kind: 'doorState', result: null, people_id: null, door_id: null, door_no: 1, method: null, detail: 'open', tenant_id: null }).execute();
    const events = await t.app.db.selectFrom('sys_access_event').select(['seq', 'server_verdict', 'flagged']).where('device_id', '=', full.id).orderBy('seq').execute();
    expect(events.map((e) => [Number(e.seq), e.server_verdict, Number(e.flagged)])).toEqual([[1, 'refused', 1], [2, null, 0]]);
    expect(accessEventEntity.search.flagged).toBe('exact');
  });
});
