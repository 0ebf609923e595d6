import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, doorEntity, entityLabel, LANGUAGES, translate, visitEntity, visitorEntity, VisitorPath, VisitPath, type Envelope, type Language, type MyVisit, type Page, type VisitHost, type VisitorLoginResult, type VisitorMessages } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

/** A wire time (`yyyy-MM-dd HH:mm:ss`, the test server's zone is UTC) of an instant. */
const wire = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/*
 * Visitors ask for visits, hosts decide (issue 30): PUT /api/vistor/visit/approve binds doors through the grant rule of
 * the visit form (assertMayBindDeviceTargets), PUT /api/vistor/visit/refuse binds none; only approved visits reach the
 * devices, and each side gets a message.
 */
describe.each(dialects)('visit requests on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'isps-visit-req-'));

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown, token: string | null = admin, lang: Language = 'en-US'): Promise<Envelope<T>> {
    return (await injectAs<T>(t.app, token, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang } })).envelope;
  }
  let seq = 0;
  /** a visitor added by the staff (of the default tenant), signed in to the visitor area */
  async function visitor(name: string): Promise<{ id: string; token: string; card: string }> {
    seq += 1;
    const card = `RCARD${dialect}${seq}`;
    const phone = `137${String(Date.now() + seq).slice(-8)}`;
    const added = await call('POST', crudPath(visitorEntity, 'add'), { name, idType: '3', idCard: `R${Date.now()}${seq}`, phone, category: 'general', password: '123456', cardNo: card });
    expect(added.success, added.message).toBe(true);
    const signed = await call<VisitorLoginResult>('POST', VisitorPath.login, { account: phone, password: '123456' }, null);
    expect(signed.success, signed.message).toBe(true);
    return { id: signed.result.visitor.id, token: signed.result.token, card };
  }

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 }, accessSync: { visitSweepMs: 100 } });
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a visitor asks a host of his tenant for a visit (checked, in three languages), sees only his own, and withdraws a pending one', async () => {
    const host = await createTestUser(t.app, `askhost_${dialect}`);
    // the host reads the console in Japanese: he is told in Japanese
    await t.app.db.updateTable('sys_user').set({ lang: 'ja-JP' }).where('id', '=', host).execute();
    const me = await visitor(`Asker ${dialect}`);
    const other = await visitor(`Other ${dialect}`);
    const now = t.clock.now();

    // the hosts: users of the visitor's tenant, by name
    const hosts = await call<VisitHost[]>('GET', `${VisitorPath.hosts}?name=askhost_${dialect}`, undefined, me.token);
    expect(hosts.result).toEqual([{ id: host, realname: `askhost_${dialect}` }]);
    const foreign = await createTestUser(t.app, `foreignhost_${dialect}`, { tenantId: null });
    expect((await call<VisitHost[]>('GET', `${VisitorPath.hosts}?name=foreignhost`, undefined, me.token)).result).toEqual([]);

    // every rule of the form, in the reader's language
    const window = { startTime: wire(now + 3_600_000), endTime: wire(now + 7_200_000) };
    for (const lang of LANGUAGES) {
      expect((await call('POST', VisitorPath.askVisit, { ...window }, me.token, lang)).message).toBe(translate(lang, 'visit.hostRequired'));
      expect((await call('POST', VisitorPath.askVisit, { ...window, hostId: foreign }, me.token, lang)).message).toBe(translate(lang, 'visit.hostUnknown'));
      expect((await call('POST', VisitorPath.askVisit, { hostId: host, startTime: window.endTime, endTime: window.startTime }, me.token, lang)).message).toBe(translate(lang, 'visit.windowOrder'));
      expect((await call('POST', VisitorPath.askVisit, { hostId: host, startTime: wire(now - 86_400_000), endTime: window.endTime }, me.token, lang)).message).toBe(translate(lang, 'visit.startPast'));
      expect((await call('POST', VisitorPath.askVisit, { hostId: host, startTime: window.startTime, endTime: wire(now + 40 * 86_400_000) }, me.token, lang)).message).toBe(translate(lang, 'visit.tooLong', { days: '30' }));
      expect((await call('POST', VisitorPath.askVisit, { hostId: host, startTime: 'tomorrow', endTime: window.endTime }, me.token, lang)).message).toBe(
        translate(lang, 'validation.dateTime', { field: entityLabel(lang, 'visit.field.startTime') }),
      );
    }
    expect(await t.app.db.selectFrom('sys_visit').select('id').where('visitor_id', '=', me.id).execute()).toHaveLength(0);

    // a staff token is no visitor's, and a visitor token no staff member's
    expect((await injectAs(t.app, admin, { method: 'GET', url: api(t.app, VisitorPath.myVisits) })).statusCode).toBe(401);
    expect((await injectAs(t.app, me.token, { method: 'GET', url: api(t.app, crudPath(visitEntity, 'list')) })).statusCode).toBe(401);

    // asked: waiting for the host, who is told; doors are not the visitor's to set
    const { doorId } = await doorDevice();
    const asked = await call<{ id: string }>('POST', VisitorPath.askVisit, { ...window, hostId: host, remark: 'Contract review', doorIds: doorId }, me.token);
    expect(asked).toMatchObject({ success: true, message: `Your request has been sent to askhost_${dialect}` });
    const visitId = asked.result.id;
    expect(await t.app.db.selectFrom('sys_visit_door').select('id').where('visit_id', '=', visitId).execute()).toHaveLength(0);
    const told = await t.app.db.selectFrom('sys_announcement').select(['user_ids', 'titile']).where('bus_id', '=', visitId).execute();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ user_ids: host, titile: translate('ja-JP', 'visit.requestTitle', { visitor: `Asker ${dialect}` }) });

    const mine = await call<MyVisit[]>('GET', VisitorPath.myVisits, undefined, me.token);
    expect(mine.result).toEqual([expect.objectContaining({ id: visitId, state: 'requested', hostName: `askhost_${dialect}`, doorNames: [], remark: 'Contract review', startTime: window.startTime, endTime: window.endTime })]);
    // the other visitor sees none of it and cannot withdraw it
    expect((await call<MyVisit[]>('GET', VisitorPath.myVisits, undefined, other.token)).result).toEqual([]);
    expect(await call('PUT', VisitorPath.cancelVisit, { id: visitId }, other.token)).toMatchObject({ success: false, message: translate('en-US', 'visit.notFound') });
    // the staff list shows its state, searchable
    const listed = await call<Page<Record<string, unknown>>>('GET', `${crudPath(visitEntity, 'list')}?state=requested&visitorId=${me.id}`);
    expect(listed.result.records).toEqual([expect.objectContaining({ id: visitId, state: 'requested', state_dictText: 'Awaiting the host' })]);
    expect((await call<Page<Record<string, unknown>>>('GET', `${crudPath(visitEntity, 'list')}?state=approved&visitorId=${me.id}`)).result.records).toEqual([]);

    expect(await call('PUT', VisitorPath.cancelVisit, { id: visitId }, me.token)).toMatchObject({ success: true, message: 'Request withdrawn' });
    expect(await t.app.db.selectFrom('sys_visit').select('id').where('id', '=', visitId).execute()).toHaveLength(0);
  });

  async function doorDevice() {
    const sn = uniqueSn('VRQ');
    const key = await approvedKey(t.app, sn, admin);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', accessDir: dir, doorOpenMs: 0, heartbeatMs: 0, clock: t.clock.now });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    expect((await call('POST', crudPath(doorEntity, 'add'), { doorName: `Door ${sn}`, deviceId, doorNo: 1 })).success).toBe(true);
    const doorId = (await t.app.db.selectFrom('sys_door').select('id').where('device_id', '=', deviceId).where('door_no', '=', 1).executeTakeFirstOrThrow()).id;
    return { sim, deviceId, doorId, name: `Door ${sn}` };
  }

  it('a requested visit in its window never reaches a device; the host (or a visit editor) decides, approval reaches the device, and the visitor is told either way', async () => {
    const front = await doorDevice();
    await createRoleWith(t.app, `visit_host_${dialect}`, ['vistor:visit:list', 'vistor:visit:approve', 'vistor:visit:refuse']);
    const hostId = await createTestUser(t.app, `dechost_${dialect}`, { roles: [`visit_host_${dialect}`] });
    await createTestUser(t.app, `bystander_${dialect}`, { roles: [`visit_host_${dialect}`] });
    const host = await login(t.app, `dechost_${dialect}`, USER_PASSWORD);
    const bystander = await login(t.app, `bystander_${dialect}`, USER_PASSWORD);
    const me = await visitor(`Guest ${dialect}`);
    const now = t.clock.now();
    const window = { hostId, startTime: wire(now), endTime: wire(now + 3_600_000) };
    const first = (await call<{ id: string }>('POST', VisitorPath.askVisit, { ...window, remark: 'Delivery' }, me.token)).result.id;
    const second = (await call<{ id: string }>('POST', VisitorPath.askVisit, window, me.token)).result.id;
    // a staff visit is approved as it is made
    const staffVisit = await call('POST', crudPath(visitEntity, 'add'), { visitorId: me.id, hostId, startTime: wire(now + 86_400_000), endTime: wire(now + 90_000_000) });
    expect(staffVisit.success, staffVisit.message).toBe(true);
    expect((await t.app.db.selectFrom('sys_visit').select('state').where('create_by', '!=', 'visitor').where('visitor_id', '=', me.id).executeTakeFirstOrThrow()).state).toBe('approved');

    // the window is open, the edges swept, the lists aligned: the request is on no device
    await t.app.accessSync.sweepVisitWindows();
    await t.app.accessSync.settled();
    await new Promise((r) => setTimeout(r, 300));
    expect(front.sim.access.entries.has(me.id)).toBe(false);
    expect((await front.sim.swipe(me.card, 1, t.clock.now())).allowed).toBe(false);

    // the doors a decider may open: none for a host without device roles, the tenant's for the administrator
    expect((await call<{ id: string }[]>('GET', VisitPath.approvableDoors, undefined, host)).result).toEqual([]);
    expect((await call<{ id: string; doorName: string }[]>('GET', VisitPath.approvableDoors)).result).toContainEqual({ id: front.doorId, doorName: front.name });

    // only the host or an editor of visits decides, and only doors the decider may hand out
    expect(await call('PUT', VisitPath.approve, { id: first, doorIds: front.doorId }, bystander)).toMatchObject({ success: false, message: translate('en-US', 'visit.notHost') });
    expect(await call('PUT', VisitPath.refuse, { id: first }, bystander)).toMatchObject({ success: false, message: translate('en-US', 'visit.notHost') });
    expect(await call('PUT', VisitPath.approve, { id: first, doorIds: front.doorId }, host)).toMatchObject({ success: false, message: translate('en-US', 'grant.deviceTargetNotHeld') });
    expect((await injectAs(t.app, me.token, { method: 'PUT', url: api(t.app, VisitPath.approve), payload: { id: first } })).statusCode).toBe(401);
    expect(front.sim.access.entries.has(me.id)).toBe(false);

    // the host refuses the second; an editor of visits (the administrator) approves the first with the door
    expect(await call('PUT', VisitPath.refuse, { id: second, reason: 'Not this week' }, host)).toMatchObject({ success: true, message: 'Visit refused' });
    expect(await call('PUT', VisitPath.refuse, { id: second }, host)).toMatchObject({ success: false, message: translate('en-US', 'visit.notRequested') });
    expect(await call('PUT', VisitPath.approve, { id: first, doorIds: front.doorId })).toMatchObject({ success: true, message: 'Visit approved' });
    await until(() => front.sim.access.entries.has(me.id), 5000, 'the approved visitor on the device');
    expect((await front.sim.swipe(me.card, 1, t.clock.now())).allowed).toBe(true);
    expect(await call('PUT', VisitorPath.cancelVisit, { id: first }, me.token)).toMatchObject({ success: false, message: translate('en-US', 'visit.notRequested') });

    const mine = (await call<MyVisit[]>('GET', VisitorPath.myVisits, undefined, me.token)).result;
    expect(mine.find((v) => v.id === first)).toMatchObject({ state: 'approved', doorNames: [front.name], hostName: `dechost_${dialect}` });
    expect(mine.find((v) => v.id === second)).toMatchObject({ state: 'refused', refuseReason: 'Not this week', doorNames: [] });

    // the visitor's messages, in the language he reads them in, his own only
    for (const lang of LANGUAGES) {
      const messages = (await call<VisitorMessages>('GET', VisitorPath.messages, undefined, me.token, lang)).result;
      expect(messages.unread).toBe(2);
      expect(messages.records.map((m) => m.title).sort()).toEqual([translate(lang, 'visit.approvedTitle'), translate(lang, 'visit.refusedTitle')].sort());
    }
    const en = (await call<VisitorMessages>('GET', VisitorPath.messages, undefined, me.token)).result.records;
    expect(en.find((m) => m.visitId === first)?.content).toContain(`Doors: ${front.name}`);
    expect(en.find((m) => m.visitId === second)?.content).toBe(`dechost_${dialect} refused your visit from ${window.startTime} to ${window.endTime}. Reason: Not this week`);
    const stranger = await visitor(`Stranger ${dialect}`);
    expect((await call<VisitorMessages>('GET', VisitorPath.messages, undefined, stranger.token)).result).toEqual({ records: [], unread: 0 });
    await call('PUT', VisitorPath.readMessages, { id: en[0]!.id }, stranger.token);
    expect((await call<VisitorMessages>('GET', VisitorPath.messages, undefined, me.token)).result.unread).toBe(2);
    await call('PUT', VisitorPath.readMessages, { id: en[0]!.id }, me.token);
    expect((await call<VisitorMessages>('GET', VisitorPath.messages, undefined, me.token)).result.unread).toBe(1);
    await call('PUT', VisitorPath.readMessages, {}, me.token);
    expect((await call<VisitorMessages>('GET', VisitorPath.messages, undefined, me.token)).result.unread).toBe(0);
  });
});
