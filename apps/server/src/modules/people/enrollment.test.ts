import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CaptureCommandKind,
  crudPath,
  DevicePath,
  DeviceUpKind,
  deviceUpTopic,
  ENROLL_WAIT_MS,
  LANGUAGES,
  logEntity,
  PeoplePath,
  peopleEntity,
  tenantEntity,
  translate,
  type Enrollment,
  type Page,
  withIdCheck,
} from '@isps/contract';
import { SimDevice, type SimDeviceOptions } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { openSocket, wsBase, type OpenSocket } from '../../platform/realtime/test-client.ts';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

/** A legal resident ID card number of a sequence number. */
const idCard = (sequence: number): string => withIdCheck(`11010519900307${String(sequence).padStart(3, '0')}`);

type Row = Record<string, unknown> & { id: string };

describe.each(dialects)('palm-vein enrollment and ID card reading on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let socket: OpenSocket;
  const sims: SimDevice[] = [];

  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(t.app, token, { method, url: api(t.app, path), payload, headers: { lang } });

  async function device(kind: SimDeviceOptions['kind'], options: Partial<SimDeviceOptions> = {}) {
    const sn = uniqueSn('EN');
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind, doorOpenMs: 0, enrollDelayMs: 100, ...options });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const id = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    return { sim, sn, id };
  }

  async function person(name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const added = await call<{ id: string }>(admin, 'POST', crudPath(peopleEntity, 'add'), { name, ...extra });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    return added.envelope.result.id;
  }

  const status = async (id: string) => (await call<Enrollment>(admin, 'GET', `${PeoplePath.enrollStatus}?id=${id}`)).envelope.result;
  const storedTemplate = async (peopleId: string, hand: string) =>
    (await t.app.db.selectFrom('sys_people_palm').select('template').where('people_id', '=', peopleId).where('hand', '=', hand).executeTakeFirst())?.template;
  /** the gateway has handled what the broker has brought so far */
  const settle = async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.app.deviceGateway.flush();
  };

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    socket = await openSocket(wsBase(t), adminId, admin);
  });
  afterAll(async () => {
    await socket?.close();
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('refuses enrollment and card reading without a capture device, or with one that is offline, in the reader’s language', async () => {
    const someone = await person('Nobody Yet');
    for (const lang of LANGUAGES) {
      expect((await call(admin, 'POST', PeoplePath.enroll, { id: someone, hand: 'left' }, lang)).envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'people.noCaptureDevice') });
      expect((await call(admin, 'GET', PeoplePath.readIdCard, undefined, lang)).envelope).toMatchObject({ success: false, message: translate(lang, 'people.noCaptureDevice') });
    }
    const capture = await device('vein');
    expect((await call(admin, 'GET', `${DevicePath.setCapture}?id=${capture.id}`)).envelope.success).toBe(true);
    await capture.sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', capture.id).executeTakeFirstOrThrow()).online === 0, 15_000, 'offline');
    for (const lang of LANGUAGES) {
      const message = translate(lang, 'people.captureOffline', { device: capture.sn });
      expect((await call(admin, 'POST', PeoplePath.enroll, { id: someone, hand: 'right' }, lang)).envelope).toMatchObject({ success: false, message });
      expect((await call(admin, 'GET', PeoplePath.readIdCard, undefined, lang)).envelope).toMatchObject({ success: false, message });
    }
    expect(await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', capture.id).execute()).toEqual([]);
    // a hand other than left or right is malformed input
    expect((await call(admin, 'POST', PeoplePath.enroll, { id: someone, hand: 'foot' })).statusCode).toBe(400);
  });

  it('enrolls a palm: the hand shows registered, the door devices get the template, and no list, export, log or socket carries it', async () => {
    const capture = await device('vein');
    expect((await call(admin, 'GET', `${DevicePath.setCapture}?id=${capture.id}`)).envelope.success).toBe(true);
    const door = await device('door');
    const zhang = await person('Zhang Enrolled', { idCard: idCard(1) });
    expect((await call(admin, 'POST', '/deviceRole/add', { roleName: 'Enrolled door', roleType: '1', deviceIds: door.id, peopleIds: zhang, timeSetting: '{"mode":"permanent"}' })).envelope.success).toBe(true);

    const started = await call<Enrollment>(admin, 'POST', PeoplePath.enroll, { id: zhang, hand: 'left' });
    expect(started.envelope).toMatchObject({ success: true, message: translate('en-US', 'people.enrollStarted') });
    expect(started.envelope.result).toMatchObject({ peopleId: zhang, hand: 'left', deviceId: capture.id, deviceName: capture.sn, status: 'waiting', reason: null });
    const enrollment = started.envelope.result.id;
    await until(async () => (await status(enrollment)).status === 'enrolled', 15_000, 'enrolled');
    const template = await storedTemplate(zhang, 'left');
    expect(template).toMatch(/^SIMPALM-left-/);
    const command = capture.sim.received.find((c) => c.kind === CaptureCommandKind.enrollPalm)!;
    expect(command.payload).toEqual({ peopleId: zhang, hand: 'left', timeoutMs: 30_000 });

    // the sync engine sends the new template to the door devices holding the person
    await until(() => door.sim.access.entries.get(zhang)?.palm?.left === template, 15_000, 'template on the door device');

    const row = (await call<Row>(admin, 'GET', `${crudPath(peopleEntity, 'queryById')}?id=${zhang}`)).envelope.result;
    expect(row).toMatchObject({ palmLeft: 1, palmRight: 0 });
    const list = await call<Page<Row>>(admin, 'GET', `${crudPath(peopleEntity, 'list')}?name=*Enrolled*`);
    expect(list.envelope.result.records.map((r) => [r.id, r.palmLeft])).toEqual([[zhang, 1]]);
    const exported = await injectAs(t.app, admin, { method: 'GET', url: api(t.app, crudPath(peopleEntity, 'exportXls')), headers: { lang: 'en-US' } });
    const log = await call<Page<Row>>(admin, 'GET', `${crudPath(logEntity, 'list')}?logType=2&pageSize=1000`);
    const entries = log.envelope.result.records.map((r) => String(r.logContent));
    expect(entries).toContain(`People: palm-vein enrollment of Zhang Enrolled (left) at ${capture.sn} started`);
    expect(entries).toContain(`People: palm vein of Zhang Enrolled (left) registered by ${capture.sn}`);
    const stored = JSON.stringify(await t.app.db.selectFrom('sys_log').selectAll().execute()) + JSON.stringify(await t.app.db.selectFrom('sys_device_command').select(['kind', 'result']).where('kind', '=', CaptureCommandKind.enrollPalm).execute());
    const status1 = await call(admin, 'GET', `${PeoplePath.enrollStatus}?id=${enrollment}`);
    for (const text of [JSON.stringify(started.envelope), JSON.stringify(status1.envelope), JSON.stringify(row), JSON.stringify(list.envelope), JSON.stringify(await sheetRows(exported.rawPayload)), JSON.stringify(log.envelope), stored, JSON.stringify(socket.messages)]) {
      expect(text).not.toContain(template!);
      expect(text).not.toContain('SIMPALM');
    }
    // the right hand next, on a device picked from the capture list
    const right = await call<Enrollment>(admin, 'POST', PeoplePath.enroll, { id: zhang, hand: 'right', deviceId: capture.id });
    await until(async () => (await status(right.envelope.result.id)).status === 'enrolled', 15_000, 'right enrolled');
    expect((await call<Row>(admin, 'GET', `${crudPath(peopleEntity, 'queryById')}?id=${zhang}`)).envelope.result).toMatchObject({ palmLeft: 1, palmRight: 1 });
  });

  it('takes a template only from the device the enrollment went to, for the person and tenant it named', async () => {
    const capture = await device('vein', { enrollDelayMs: 2500 });
    const other = await device('camera');
    const li = await person('Li Guarded');
    const started = await call<Enrollment>(admin, 'POST', PeoplePath.enroll, { id: li, hand: 'right', deviceId: capture.id });
    const enrollment = started.envelope.result.id;
    await until(() => capture.sim.received.some((c) => c.id === enrollment), 15_000, 'command delivered');
    // another device answers the command: refused, the enrollment still waits for its own device
    const forged = { id: 'forged-1', command: enrollment, peopleId: li, hand: 'right', template: 'FORGED-TEMPLATE' };
    await other.sim.publishRaw(deviceUpTopic(other.sn, DeviceUpKind.enroll), JSON.stringify(forged));
    await settle();
    expect(await storedTemplate(li, 'right')).toBeUndefined();
    expect((await status(enrollment)).status).toBe('waiting');
    await until(async () => (await status(enrollment)).status === 'enrolled', 15_000, 'enrolled by its own device');
    expect(await storedTemplate(li, 'right')).toMatch(/^SIMPALM-right-/);

    // a command naming a person of another tenant (never issued by the console): the upload is refused
    const tenant = (await call<{ id: string }>(admin, 'POST', crudPath(tenantEntity, 'add'), { name: 'enroll_other', code: 'enroll_other', status: 1 })).envelope.result.id;
    const stranger = await person('Stranger Elsewhere', { tenantId: tenant });
    const sneaked = await t.app.deviceGateway.enqueueCommand(capture.id, CaptureCommandKind.enrollPalm, { peopleId: stranger, hand: 'left', timeoutMs: 30_000 }, 'admin');
    await until(async () => (await t.app.db.selectFrom('sys_device_command').select('status').where('id', '=', sneaked).executeTakeFirstOrThrow()).status === 'failed', 15_000, 'upload refused');
    expect(await storedTemplate(stranger, 'left')).toBeUndefined();
    expect(JSON.parse((await t.app.db.selectFrom('sys_device_command').select('result').where('id', '=', sneaked).executeTakeFirstOrThrow()).result!)).toEqual({ reason: 'refused' });
    // the person of another tenant cannot be enrolled from this tenant's console either
    expect((await call(admin, 'POST', PeoplePath.enroll, { id: stranger, hand: 'left' })).statusCode).toBe(404);
  });

  it('reports the device’s failures, a cancel and a timeout, and takes no late template', async () => {
    const capture = await device('vein', { enrollDelayMs: 300, enrollOutcome: 'quality' });
    const wang = await person('Wang Failing');
    const poor = await call<Enrollment>(admin, 'POST', PeoplePath.enroll, { id: wang, hand: 'left', deviceId: capture.id });
    await until(async () => (await status(poor.envelope.result.id)).status === 'failed', 15_000, 'failed');
    expect(await status(poor.envelope.result.id)).toMatchObject({ status: 'failed', reason: 'quality' });

    capture.sim.enrollOutcome = 'ok';
    // a hand held long enough that the cancel, however busy the server, comes first
    const slow = await device('vein', { enrollDelayMs: 10_000 });
    const cancelled = await call<Enrollment>(admin, 'POST', PeoplePath.enroll, { id: wang, hand: 'left', deviceId: slow.id });
    const cancel = await call<Enrollment>(admin, 'POST', PeoplePath.enrollCancel, { id: cancelled.envelope.result.id }, 'zh-CN');
    expect(cancel.envelope).toMatchObject({ success: true, message: translate('zh-CN', 'people.enrollCancelled'), result: { status: 'failed', reason: 'cancelled' } });
    await until(() => slow.sim.received.some((c) => c.kind === CaptureCommandKind.cancelEnroll), 15_000, 'cancel delivered');
    await settle();
    expect(await storedTemplate(wang, 'left')).toBeUndefined();
    expect((await call(admin, 'POST', PeoplePath.enrollCancel, { id: cancelled.envelope.result.id }, 'ja-JP')).envelope).toMatchObject({ success: false, message: translate('ja-JP', 'people.enrollEnded') });

    // nobody waits forever: past its time the enrollment is over, and the device's late template is not taken
    const late = await call<Enrollment>(admin, 'POST', PeoplePath.enroll, { id: wang, hand: 'left', deviceId: capture.id });
    t.clock.advance(ENROLL_WAIT_MS + 1000);
    expect(await status(late.envelope.result.id)).toMatchObject({ status: 'failed', reason: 'timeout' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await settle();
    expect(await storedTemplate(wang, 'left')).toBeUndefined();
    expect((await call(admin, 'GET', `${PeoplePath.enrollStatus}?id=unknown-enrollment`)).envelope).toMatchObject({ success: false, message: translate('en-US', 'people.enrollNotFound') });
  });

  it('reads the ID card on the capture device, or warns that no ID card is detected', async () => {
    const capture = await device('camera', { idCard: idCard(7).toLowerCase() });
    expect((await call(admin, 'GET', `${DevicePath.setCapture}?id=${capture.id}`)).envelope.success).toBe(true);
    const read = await call<{ idCard: string }>(admin, 'GET', PeoplePath.readIdCard);
    expect(read.envelope).toMatchObject({ success: true, result: { idCard: idCard(7) } });
    // the number read is not kept in the command queue
    const commands = await t.app.db.selectFrom('sys_device_command').select(['kind', 'status', 'result']).where('device_id', '=', capture.id).where('kind', '=', CaptureCommandKind.readIdCard).execute();
    expect(commands).toEqual([{ kind: 'readIdCard', status: 'acked', result: null }]);

    capture.sim.idCard = null;
    for (const lang of LANGUAGES) {
      expect((await call(admin, 'GET', PeoplePath.readIdCard, undefined, lang)).envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'people.noIdCard') });
    }
    // a device that does not answer: the warning after a few seconds, and the read is not delivered later
    const door = await device('door', { withholdAcks: true });
    const before = Date.now();
    expect((await call(admin, 'GET', `${PeoplePath.readIdCard}?deviceId=${door.id}`)).envelope).toMatchObject({ success: false, message: translate('en-US', 'people.noIdCard') });
    expect(Date.now() - before).toBeLessThan(6000);
    expect((await t.app.db.selectFrom('sys_device_command').select('status').where('device_id', '=', door.id).executeTakeFirstOrThrow()).status).toBe('failed');
  });

  it('needs device:people:enroll to enroll and device:people:readIdCard to read a card', async () => {
    const capture = await device('vein', { idCard: idCard(9) });
    expect((await call(admin, 'GET', `${DevicePath.setCapture}?id=${capture.id}`)).envelope.success).toBe(true);
    const someone = await person('Permission Probe');
    await createRoleWith(t.app, 'people_viewer', ['device:people:list', 'device:people:edit']);
    await createTestUser(t.app, 'enroll_viewer', { roles: ['people_viewer'] });
    const viewer = await login(t.app, 'enroll_viewer', USER_PASSWORD);
    for (const [method, path, payload] of [
      ['POST', PeoplePath.enroll, { id: someone, hand: 'left' }],
      ['POST', PeoplePath.enrollCancel, { id: 'x' }],
      ['GET', `${PeoplePath.enrollStatus}?id=x`, undefined],
      ['GET', PeoplePath.readIdCard, undefined],
    ] as const) {
      const denied = await call(viewer, method, path, payload);
      expect([denied.statusCode, denied.envelope.code], path).toEqual([403, 510]);
    }
    await createRoleWith(t.app, 'people_enroller', ['device:people:list', 'device:people:enroll', 'device:people:readIdCard']);
    await createTestUser(t.app, 'enroller', { roles: ['people_enroller'] });
    const enroller = await login(t.app, 'enroller', USER_PASSWORD);
    expect((await call(enroller, 'GET', PeoplePath.readIdCard)).envelope.result).toEqual({ idCard: idCard(9) });
    expect((await call(enroller, 'POST', PeoplePath.enroll, { id: someone, hand: 'left' })).envelope.success).toBe(true);
  });
});
