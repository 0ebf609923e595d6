import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CaptureCommandKind,
  crudPath,
  DevicePath,
  doorEntity,
  LANGUAGES,
  logEntity,
  PeoplePath,
  peopleEntity,
  tenantEntity,
  translate,
  VisitorDeskPath,
  VisitState,
  visitEntity,
  visitorEntity,
  type DeskLookup,
  type Enrollment,
  type Page,
  type VisitPass,
  withIdCheck,
} from '@isps/contract';
import { SimDevice, type SimDeviceOptions } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

/** A legal resident ID number (check character included) of a sequence number. */
const idCard = (sequence: number): string => withIdCheck(`11010519850612${String(sequence).padStart(3, '0')}`);

/** A wire time (`yyyy-MM-dd HH:mm:ss`, the test server's zone is UTC) of an instant. */
const wire = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const HOUR = 3_600_000;

type Row = Record<string, unknown> & { id: string };

describe.each(dialects)('the arrivals desk on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let hostId: string;
  let capture: { sim: SimDevice; sn: string; id: string };
  let doorId: string;
  const sims: SimDevice[] = [];
  const pushed: unknown[] = [];

  const call = <T = unknown>(token: string, method: 'GET' | 'POST', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(t.app, token, { method, url: api(t.app, path), payload, headers: { lang } });

  async function device(kind: SimDeviceOptions['kind'], options: Partial<SimDeviceOptions> = {}) {
    const sn = uniqueSn('DESK');
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind, doorOpenMs: 0, enrollDelayMs: 100, ...options });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const id = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    return { sim, sn, id };
  }

  let seq = 0;
  async function visitor(name: string, token = admin): Promise<{ id: string; idCard: string }> {
    seq += 1;
    const number = idCard(seq);
    const added = await call(token, 'POST', crudPath(visitorEntity, 'add'), { name, idType: '1', idCard: number, phone: `1370000${String(seq).padStart(4, '0')}`, category: 'general', password: '123456' });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    const id = (await t.app.db.selectFrom('sys_visitor').select('id').where('id_card', '=', number).executeTakeFirstOrThrow()).id;
    return { id, idCard: number };
  }
  async function visit(visitorId: string, start: number, end: number, extra: Record<string, unknown> = {}, token = admin, host = hostId): Promise<string> {
    const added = await call<{ id: string }>(token, 'POST', crudPath(visitEntity, 'add'), { visitorId, hostId: host, startTime: wire(start), endTime: wire(end), ...extra });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    return added.envelope.result.id;
  }

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    // the console's day starts at 09:00 (UTC, the test zone), so "later today" has room whenever the suite runs
    const day = new Date(t.clock.now() + 24 * HOUR);
    t.clock.advance(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 9) - t.clock.now());
    const hub = t.app.realtime;
    for (const method of ['sendToUser', 'sendToUsers', 'broadcast'] as const) {
      const original = (hub[method] as (...args: unknown[]) => Promise<void>).bind(hub);
      (hub as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        pushed.push(args);
        return original(...args);
      };
    }
    admin = await adminToken(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    hostId = await createTestUser(t.app, `desk_host_${dialect}`);
    capture = await device('vein');
    expect((await call(admin, 'GET', `${DevicePath.setCapture}?id=${capture.id}`)).envelope.success).toBe(true);
    const door = await device('door');
    expect((await call(admin, 'POST', crudPath(doorEntity, 'add'), { doorName: 'Front gate', deviceId: door.id, doorNo: 1 })).envelope.success).toBe(true);
    doorId = (await t.app.db.selectFrom('sys_door').select('id').where('device_id', '=', door.id).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('finds the visitor by the ID card read at the capture device, with his visits of today only', async () => {
    const guest = await visitor('Desk Arrival');
    const now = t.clock.now();
    const current = await visit(guest.id, now - HOUR, now + HOUR, { doorIds: doorId });
    const later = await visit(guest.id, now + 3 * HOUR, now + 4 * HOUR);
    await visit(guest.id, now - 5 * HOUR, now - 4 * HOUR); // over
    await visit(guest.id, now + 26 * HOUR, now + 27 * HOUR); // tomorrow

    // the card on the reader: read, in capitals, and the number not kept in the queue
    capture.sim.idCard = guest.idCard.toLowerCase();
    const read = await call<{ idCard: string }>(admin, 'GET', VisitorDeskPath.readIdCard);
    expect(read.envelope).toMatchObject({ success: true, result: { idCard: guest.idCard } });
    const reads = await t.app.db.selectFrom('sys_device_command').select('result').where('device_id', '=', capture.id).where('kind', '=', CaptureCommandKind.readIdCard).execute();
    expect(reads.every((r) => r.result === null)).toBe(true);

    const found = await call<DeskLookup>(admin, 'GET', `${VisitorDeskPath.find}?idCard=${guest.idCard.toLowerCase()}`);
    expect(found.envelope, found.envelope.message).toMatchObject({ success: true, message: translate('en-US', 'visitorDesk.found', { name: 'Desk Arrival' }) });
    expect(found.envelope.result.visitor).toMatchObject({ id: guest.id, name: 'Desk Arrival', idCardMasked: `**************${guest.idCard.slice(-4)}`, cardNoMasked: null, palmLeft: 0, palmRight: 0, status: 1 });
    expect(found.envelope.result.visits.map((v) => v.id)).toEqual([current, later]);
    expect(found.envelope.result.visits[0]).toMatchObject({ hostName: `desk_host_${dialect}`, startTime: wire(now - HOUR), endTime: wire(now + HOUR), doors: ['Front gate'] });

    // nobody on the reader, or nobody with that number: the reader's language says so
    capture.sim.idCard = null;
    for (const lang of LANGUAGES) {
      expect((await call(admin, 'GET', VisitorDeskPath.readIdCard, undefined, lang)).envelope).toMatchObject({ success: false, message: translate(lang, 'people.noIdCard') });
      expect((await call(admin, 'GET', `${VisitorDeskPath.find}?idCard=${idCard(900)}`, undefined, lang)).envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'visitorDesk.noVisitor') });
    }
    expect((await call(admin, 'GET', `${VisitorDeskPath.find}?idCard=`)).statusCode).toBe(400);
  });

  it('shows a visit’s pass: visitor, host, window, doors and the visit id', async () => {
    const guest = await visitor('Pass Holder');
    const now = t.clock.now();
    const id = await visit(guest.id, now, now + 2 * HOUR, { doorIds: doorId });
    const pass = await call<VisitPass>(admin, 'GET', `${VisitorDeskPath.pass}?visitId=${id}`, undefined, 'ja-JP');
    expect(pass.envelope.result).toEqual({ visitId: id, visitorName: 'Pass Holder', hostName: `desk_host_${dialect}`, startTime: wire(now), endTime: wire(now + 2 * HOUR), doors: ['Front gate'] });
    expect((await call(admin, 'GET', `${VisitorDeskPath.pass}?visitId=unknown-visit`)).statusCode).toBe(404);
    // a request not yet approved, or refused, gets no pass and is not among the day's visits
    const asked = await visit(guest.id, now, now + HOUR);
    for (const state of [VisitState.requested, VisitState.refused]) {
      await t.app.db.updateTable('sys_visit').set({ state }).where('id', '=', asked).execute();
      for (const lang of LANGUAGES) {
        expect((await call(admin, 'GET', `${VisitorDeskPath.pass}?visitId=${asked}`, undefined, lang)).envelope).toMatchObject({ success: false, message: translate(lang, 'visitorDesk.notApproved') });
      }
      expect((await call<DeskLookup>(admin, 'GET', `${VisitorDeskPath.find}?idCard=${guest.idCard}`)).envelope.result.visits.map((v) => v.id)).not.toContain(asked);
    }
    // the seeded administrator as host: his name in the reader's language
    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const hosted = await visit(guest.id, now, now + HOUR, {}, admin, adminId);
    for (const [lang, name] of [['zh-CN', '管理员'], ['ja-JP', '管理者'], ['en-US', 'Administrator']] as const) {
      expect((await call<VisitPass>(admin, 'GET', `${VisitorDeskPath.pass}?visitId=${hosted}`, undefined, lang)).envelope.result.hostName).toBe(name);
      expect((await call<DeskLookup>(admin, 'GET', `${VisitorDeskPath.find}?idCard=${guest.idCard}`, undefined, lang)).envelope.result.visits.find((v) => v.id === hosted)?.hostName).toBe(name);
    }
  });

  it('issues a card unique within the tenant across people and visitors, answered and logged only masked', async () => {
    const guest = await visitor('Card Taker');
    const other = await visitor('Card Holder Already');
    const CARD = `DESK${dialect.toUpperCase()}4711`;
    expect((await call(admin, 'POST', crudPath(peopleEntity, 'add'), { name: 'Person With Card', cardNo: 'PEOPLECARD01' })).envelope.success).toBe(true);
    expect((await call(admin, 'POST', VisitorDeskPath.issueCard, { visitorId: other.id, cardNo: 'VISITCARD02' })).envelope.success).toBe(true);
    for (const taken of ['PEOPLECARD01', 'VISITCARD02']) {
      for (const lang of LANGUAGES) expect((await call(admin, 'POST', VisitorDeskPath.issueCard, { visitorId: guest.id, cardNo: taken }, lang)).envelope).toMatchObject({ success: false, message: translate(lang, 'duplicate.cardNo') });
    }
    expect((await call(admin, 'POST', VisitorDeskPath.issueCard, { visitorId: guest.id, cardNo: 'no!' })).statusCode).toBe(400);
    expect((await call(admin, 'POST', VisitorDeskPath.issueCard, { visitorId: 'nobody-here', cardNo: CARD })).statusCode).toBe(404);

    const issued = await call<{ cardNoMasked: string }>(admin, 'POST', VisitorDeskPath.issueCard, { visitorId: guest.id, cardNo: CARD });
    expect(issued.envelope).toMatchObject({ success: true, message: translate('en-US', 'visitorDesk.cardIssued'), result: { cardNoMasked: `${'*'.repeat(CARD.length - 4)}4711` } });
    expect((await t.app.db.selectFrom('sys_visitor').select('card_no').where('id', '=', guest.id).executeTakeFirstOrThrow()).card_no).toBe(CARD);
    // the visitor's own card again is no duplicate
    expect((await call(admin, 'POST', VisitorDeskPath.issueCard, { visitorId: guest.id, cardNo: CARD })).envelope.success).toBe(true);

    const found = await call(admin, 'GET', `${VisitorDeskPath.find}?idCard=${guest.idCard}`);
    expect(found.envelope.result).toMatchObject({ visitor: { cardNoMasked: `${'*'.repeat(CARD.length - 4)}4711` } });
    const list = await call(admin, 'GET', `${crudPath(visitorEntity, 'list')}?name=*Card*`);
    const detail = await call(admin, 'GET', `${crudPath(visitorEntity, 'queryById')}?id=${guest.id}`);
    const exported = await injectAs(t.app, admin, { method: 'GET', url: api(t.app, crudPath(visitorEntity, 'exportXls')), headers: { lang: 'en-US' } });
    const log = await call<Page<Row>>(admin, 'GET', `${crudPath(logEntity, 'list')}?logType=2&pageSize=1000`);
    expect(log.envelope.result.records.map((r) => String(r.logContent)).filter((e) => e.endsWith(': card issued to Card Taker'))).toHaveLength(2);
    const stored = JSON.stringify(await t.app.db.selectFrom('sys_log').selectAll().execute());
    for (const text of [JSON.stringify(issued.envelope), JSON.stringify(found.envelope), JSON.stringify(list.envelope), JSON.stringify(detail.envelope), JSON.stringify(await sheetRows(exported.rawPayload)), JSON.stringify(log.envelope), stored, JSON.stringify(pushed)]) {
      expect(text).not.toContain(CARD);
    }
  });

  it('enrols a visitor’s palm at the capture device as people’s enrollment does, template never answered', async () => {
    const guest = await visitor('Palm Giver');
    const started = await call<Enrollment>(admin, 'POST', VisitorDeskPath.enroll, { id: guest.id, hand: 'left' });
    expect(started.envelope).toMatchObject({ success: true, message: translate('en-US', 'people.enrollStarted'), result: { peopleId: guest.id, hand: 'left', deviceId: capture.id, status: 'waiting' } });
    const id = started.envelope.result.id;
    const status = async () => (await call<Enrollment>(admin, 'GET', `${VisitorDeskPath.enrollStatus}?id=${id}`)).envelope.result;
    await until(async () => (await status()).status === 'enrolled', 15_000, 'enrolled');
    const command = capture.sim.received.find((c) => c.id === id)!;
    expect(command.payload).toEqual({ peopleId: guest.id, hand: 'left', timeoutMs: 30_000, holder: 'visitor' });
    const template = (await t.app.db.selectFrom('sys_people_palm').select('template').where('people_id', '=', guest.id).where('hand', '=', 'left').executeTakeFirstOrThrow()).template;
    expect(template).toMatch(/^SIMPALM-left-/);
    expect(await t.app.db.selectFrom('sys_visitor').select(['palm_left', 'palm_right']).where('id', '=', guest.id).executeTakeFirstOrThrow()).toEqual({ palm_left: 1, palm_right: 0 });
    // a visitor's enrollment is not one of people's, nor the other way round
    expect((await call(admin, 'GET', `${PeoplePath.enrollStatus}?id=${id}`)).envelope).toMatchObject({ success: false, message: translate('en-US', 'people.enrollNotFound') });
    // a cancel of an ended enrollment is refused
    expect((await call(admin, 'POST', VisitorDeskPath.enrollCancel, { id })).envelope).toMatchObject({ success: false, message: translate('en-US', 'people.enrollEnded') });

    const found = await call<DeskLookup>(admin, 'GET', `${VisitorDeskPath.find}?idCard=${guest.idCard}`);
    expect(found.envelope.result.visitor).toMatchObject({ palmLeft: 1, palmRight: 0 });
    const log = await call<Page<Row>>(admin, 'GET', `${crudPath(logEntity, 'list')}?logType=2&pageSize=1000`);
    const entries = log.envelope.result.records.map((r) => String(r.logContent));
    expect(entries.some((e) => e.includes('palm vein of Palm Giver (left) registered by'))).toBe(true);
    const list = await call(admin, 'GET', `${crudPath(visitorEntity, 'list')}?name=*Palm*`);
    for (const text of [JSON.stringify(started.envelope), JSON.stringify(await status()), JSON.stringify(found.envelope), JSON.stringify(list.envelope), JSON.stringify(log.envelope), JSON.stringify(await t.app.db.selectFrom('sys_log').selectAll().execute()), JSON.stringify(pushed)]) {
      expect(text).not.toContain(template);
      expect(text).not.toContain('SIMPALM');
    }
    expect((await call(admin, 'POST', VisitorDeskPath.enroll, { id: guest.id, hand: 'foot' })).statusCode).toBe(400);
  });

  it('keeps each tenant to its own visitors and visits', async () => {
    const guest = await visitor('Tenant Guarded');
    const now = t.clock.now();
    const id = await visit(guest.id, now, now + HOUR);
    const tenant = (await call<{ id: string }>(admin, 'POST', crudPath(tenantEntity, 'add'), { name: 'desk_other', code: 'desk_other', status: 1 })).envelope.result.id;
    await createRoleWith(t.app, 'desk_clerk_other', ['vistor:visit:desk', 'vistor:list:issueCard', 'vistor:list:enroll']);
    await createTestUser(t.app, 'desk_other_clerk', { roles: ['desk_clerk_other'], tenantId: tenant });
    const stranger = await login(t.app, 'desk_other_clerk', USER_PASSWORD);
    expect((await call(stranger, 'GET', `${VisitorDeskPath.find}?idCard=${guest.idCard}`)).envelope).toMatchObject({ success: false, message: translate('en-US', 'visitorDesk.noVisitor') });
    expect((await call(stranger, 'GET', `${VisitorDeskPath.pass}?visitId=${id}`)).statusCode).toBe(404);
    expect((await call(stranger, 'POST', VisitorDeskPath.issueCard, { visitorId: guest.id, cardNo: 'STRANGER001' })).statusCode).toBe(404);
    expect((await call(stranger, 'POST', VisitorDeskPath.enroll, { id: guest.id, hand: 'right' })).statusCode).toBe(404);
    // the other tenant has no capture device: this tenant's is not his
    expect((await call(stranger, 'GET', VisitorDeskPath.readIdCard)).envelope).toMatchObject({ success: false, message: translate('en-US', 'people.noCaptureDevice') });
    expect((await t.app.db.selectFrom('sys_visitor').select('card_no').where('id', '=', guest.id).executeTakeFirstOrThrow()).card_no).toBeNull();
  });

  it('needs vistor:visit:desk to look up and show passes, vistor:list:issueCard to issue and vistor:list:enroll to enrol', async () => {
    const guest = await visitor('Permission Probe');
    const now = t.clock.now();
    const id = await visit(guest.id, now, now + HOUR);
    await createRoleWith(t.app, 'desk_viewer', ['vistor:visit:list', 'vistor:list:list', 'vistor:list:edit']);
    await createTestUser(t.app, 'desk_viewer', { roles: ['desk_viewer'] });
    const viewer = await login(t.app, 'desk_viewer', USER_PASSWORD);
    const routes = [
      ['GET', VisitorDeskPath.readIdCard, undefined],
      ['GET', `${VisitorDeskPath.find}?idCard=${guest.idCard}`, undefined],
      ['GET', `${VisitorDeskPath.pass}?visitId=${id}`, undefined],
      ['POST', VisitorDeskPath.issueCard, { visitorId: guest.id, cardNo: 'PROBE00001' }],
      ['POST', VisitorDeskPath.enroll, { id: guest.id, hand: 'left' }],
      ['GET', `${VisitorDeskPath.enrollStatus}?id=x`, undefined],
      ['POST', VisitorDeskPath.enrollCancel, { id: 'x' }],
    ] as const;
    for (const [method, path, payload] of routes) {
      const denied = await call(viewer, method, path, payload);
      expect([denied.statusCode, denied.envelope.code], path).toEqual([403, 510]);
    }
    // the desk alone looks up and shows passes, but neither issues cards nor enrols
    await createRoleWith(t.app, 'desk_only', ['vistor:visit:desk']);
    await createTestUser(t.app, 'desk_only', { roles: ['desk_only'] });
    const desk = await login(t.app, 'desk_only', USER_PASSWORD);
    expect((await call(desk, 'GET', `${VisitorDeskPath.find}?idCard=${guest.idCard}`)).envelope.success).toBe(true);
    expect((await call(desk, 'GET', `${VisitorDeskPath.pass}?visitId=${id}`)).envelope.success).toBe(true);
    for (const [method, path, payload] of routes.slice(3)) expect((await call(desk, method, path, payload)).statusCode, path).toBe(403);
  });
});
