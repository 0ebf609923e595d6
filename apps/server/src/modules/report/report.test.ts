import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportPath, type ReportKind, type ReportResult, type ReportSchedule, type ReportScreen } from '@isps/contract';
import { sql } from 'kysely';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, defaultTenantId, injectAs, login, testDialects, USER_PASSWORD, buildTestApp, type TestApp } from '../../test/harness.ts';
import { startSmtp, type LocalSmtp } from '../../test/smtp-server.ts';

const AUDIT = { create_by: 'test', create_time: null, update_by: null, update_time: null };
const DAY = '2026-11-10';
const BEGIN = `${DAY} 00:00:00`;
const END = '2026-11-11 00:00:00';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const at = (minutes: number) => new Date(DAY_START + minutes * 60_000).toISOString();

describe.each(await testDialects())('reports on %s', (dialect) => {
  let t: TestApp;
  let smtp: LocalSmtp;
  let admin: string;
  let tenantA: string;
  let tenantB: string;
  let readerB: string;
  const ids: Record<string, string> = {};

  async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, token = admin, lang = 'en-US') {
    return injectAs<T>(t.app, token, { method, url: api(t.app, path), ...(payload ? { payload } : {}), headers: { lang } });
  }
  const screenOf = (kind: ReportKind): ReportScreen => (kind === 'alarmsByCode' || kind === 'doorOpenTimes' ? 'alarm' : 'access');
  async function report(kind: ReportKind, filters: Record<string, string> = {}, token = admin): Promise<ReportResult> {
    const query = new URLSearchParams({ kind, begin: BEGIN, end: END, ...filters });
    const answer = await call<ReportResult>('GET', `${reportPath(screenOf(kind), 'run')}?${query}`, undefined, token);
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result;
  }
  /** the test's own count of the period's passages (openings and denials) of tenant A */
  async function countEvents(where: (q: ReturnType<typeof base>) => ReturnType<typeof base>) {
    const row = await where(base()).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }
  const base = () =>
    t.app.db
      .selectFrom('sys_access_event')
      .where('tenant_id', '=', tenantA)
      .where('kind', 'in', ['opening', 'denial'])
      .where('event_time', '>=', `${DAY}T00:00:00.000Z`)
      .where('event_time', '<', '2026-11-11T00:00:00.000Z');

  async function device(name: string, tenantId: string, areaId: string | null) {
    const id = randomUUID();
    await t.app.db
      .insertInto('sys_device')
      .values({ ...AUDIT, id, device_name: name, sn: `RPT-${randomUUID().slice(0, 8)}`, mac: null, ip: null, gateway: null, subnet_mask: null, system_type: null, device_type_id: null, device_model: null, background_image: null, location: null, area_id: areaId, online: 0, last_seen: null, session_id: null, firmware: null, tenant_id: tenantId })
      .execute();
    return id;
  }
  async function door(name: string, deviceId: string, doorNo: number, areaId: string, tenantId: string) {
    const id = randomUUID();
    await t.app.db.insertInto('sys_door').values({ ...AUDIT, id, door_name: name, device_id: deviceId, door_no: doorNo, area_id: areaId, state: 0, state_time: null, tenant_id: tenantId }).execute();
    return id;
  }
  async function area(name: string, tenantId: string) {
    const id = randomUUID();
    await t.app.db.insertInto('sys_area').values({ ...AUDIT, id, area_name: name, parent_id: null, address: null, remark: null, tenant_id: tenantId }).execute();
    return id;
  }
  async function person(name: string, userNo: string, departId: string | null, tenantId: string) {
    const id = randomUUID();
    await t.app.db
      .insertInto('sys_people')
      .values({ ...AUDIT, id, name, id_card: null, card_no: null, card_no_masked: null, user_no: userNo, sex: null, depart_id: departId, picture: null, palm_left: 0, palm_right: 0, password: null, status: 1, del_flag: 0, tenant_id: tenantId })
      .execute();
    return id;
  }
  let seq = 0;
  async function passage(deviceId: string, doorId: string, doorNo: number, peopleId: string | null, minutes: number, kind: 'opening' | 'denial', reason: string | null, tenantId: string) {
    await t.app.db
      .insertInto('sys_access_event')
      .values({ ...AUDIT, id: randomUUID(), device_id: deviceId, seq: ++seq, event_time: at(minutes), kind, result: kind === 'opening' ? 1 : 0, people_id: peopleId, door_id: doorId, door_no: doorNo, method: 'card', detail: reason, server_verdict: 'allowed', flagged: 0, tenant_id: tenantId })
      .execute();
  }
  async function alarm(deviceId: string, code: string, minutes: number, count: number, areaId: string | null, tenantId: string) {
    await t.app.db
      .insertInto('sys_device_alarm')
      .values({ ...AUDIT, id: randomUUID(), device_id: deviceId, event_seq: ++seq, code, level: 'M', state: 0, alarm_time: at(minutes), handled_by: null, handled_time: null, tenant_id: tenantId, alarm_count: count, last_time: null, open_key: null, area_id: areaId })
      .execute();
  }
  async function doorState(deviceId: string, doorId: string, state: string, minutes: number, tenantId: string) {
    await t.app.db.insertInto('sys_door_event').values({ ...AUDIT, id: randomUUID(), device_id: deviceId, seq: ++seq, event_time: at(minutes), door_id: doorId, door_no: 1, state, tenant_id: tenantId }).execute();
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(dialect, { env: { SMTP_URL: smtp.url, SMTP_FROM: 'Console <console@isps.test>' } });
    admin = await adminToken(t.app);
    tenantA = await defaultTenantId(t.app);
    tenantB = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: tenantB, name: 'Tenant B', code: `rpt-b-${dialect}`, begin_date: null, end_date: null, status: 1, ...AUDIT }).execute();

    ids.hall = await area('Hall', tenantA);
    ids.lab = await area('Lab', tenantA);
    ids.d1 = await device('Front controller', tenantA, ids.hall);
    ids.d2 = await device('Lab controller', tenantA, ids.lab);
    ids.frontDoor = await door('Front door', ids.d1, 1, ids.hall, tenantA);
    ids.sideDoor = await door('Side door', ids.d1, 2, ids.lab, tenantA);
    ids.labDoor = await door('Lab door', ids.d2, 1, ids.lab, tenantA);
    ids.g1 = randomUUID();
    ids.g2 = randomUUID();
    for (const [id, name, code] of [[ids.g1, 'Staff', 'RP1'], [ids.g2, 'Guests', 'RP2']] as const) {
      await t.app.db.insertInto('sys_depart').values({ ...AUDIT, id, parent_id: null, depart_name: `${name} ${dialect}`, org_code: code, org_type: '1', depart_order: 0, mobile: null, address: null, memo: null, del_flag: 0, tenant_id: tenantA }).execute();
    }
    ids.ann = await person('Ann', 'U1', ids.g1, tenantA);
    ids.bob = await person('Bob', 'U2', ids.g2, tenantA);
    const doors = [[ids.d1, ids.frontDoor, 1], [ids.d1, ids.sideDoor, 2], [ids.d2, ids.labDoor, 1]] as const;
    const people = [ids.ann, ids.bob, null];
    // 61 passages over the day (some hours twice), one before the period and one at its end (both left out)
    for (let i = 0; i < 61; i++) {
      const [deviceId, doorId, doorNo] = doors[i % 3]!;
      const denial = i % 4 === 0;
      await passage(deviceId!, doorId!, doorNo!, people[i % 5 % 3]!, i * 23, denial ? 'denial' : 'opening', denial ? (i % 8 === 0 ? 'unknown' : 'outsideTime') : null, tenantA);
    }
    await passage(ids.d1, ids.frontDoor, 1, ids.ann, -1, 'opening', null, tenantA);
    await passage(ids.d1, ids.frontDoor, 1, ids.ann, 24 * 60, 'opening', null, tenantA);
    // door alarms: held open twice (90 s and 30 s until the door closed), forced open once (never closed since)
    await alarm(ids.d1, 'heldOpen', 60, 1, ids.hall, tenantA);
    await doorState(ids.d1, ids.frontDoor, 'open', 60.5, tenantA);
    await doorState(ids.d1, ids.frontDoor, 'closed', 61.5, tenantA);
    await alarm(ids.d1, 'heldOpen', 120, 2, ids.hall, tenantA);
    await doorState(ids.d1, ids.frontDoor, 'closed', 120.5, tenantA);
    await alarm(ids.d1, 'forcedOpen', 300, 1, ids.hall, tenantA);
    await alarm(ids.d2, 'tamper', 10, 3, ids.lab, tenantA);
    await alarm(ids.d2, 'tamper', 20, 1, ids.lab, tenantA);
    await alarm(ids.d2, 'heldOpen', 400, 1, ids.lab, tenantA);
    await doorState(ids.d2, ids.labDoor, 'closed', 410, tenantA);

    // tenant B: the same kind of rows, never in tenant A's figures
    const areaB = await area('B hall', tenantB);
    const deviceB = await device('B controller', tenantB, areaB);
    const doorB = await door('B door', deviceB, 1, areaB, tenantB);
    const personB = await person('Zed', 'UB', null, tenantB);
    for (let i = 0; i < 7; i++) await passage(deviceB, doorB, 1, personB, i * 30, i === 0 ? 'denial' : 'opening', i === 0 ? 'unknown' : null, tenantB);
    await alarm(deviceB, 'heldOpen', 50, 1, areaB, tenantB);

    await createRoleWith(t.app, `report_reader_${dialect}`, ['report:access:view', 'report:alarm:view']);
    const userB = await createTestUser(t.app, `report-b-${dialect}`, { roles: [`report_reader_${dialect}`], tenantId: tenantB });
    await t.app.db.updateTable('sys_role').set({ tenant_id: tenantB }).where('role_code', '=', `report_reader_${dialect}`).execute();
    await t.app.db.updateTable('sys_user').set({ tenant_id: tenantB }).where('id', '=', userB).execute();
    readerB = await login(t.app, `report-b-${dialect}`, USER_PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('counts passages by door as the events are, and the xlsx reads back the same figures', async () => {
    const result = await report('accessByDoor');
    expect(result.columns).toEqual(['door', 'device', 'passed', 'refused', 'total']);
    expect(result.rows).toHaveLength(3);
    for (const row of result.rows) {
      const doorId = { 'Front door': ids.frontDoor, 'Side door': ids.sideDoor, 'Lab door': ids.labDoor }[row.door as string]!;
      expect(row.passed).toBe(await countEvents((q) => q.where('door_id', '=', doorId).where('result', '=', 1)));
      expect(row.refused).toBe(await countEvents((q) => q.where('door_id', '=', doorId).where('result', '=', 0)));
      expect(row.total).toBe(await countEvents((q) => q.where('door_id', '=', doorId)));
    }
    expect(result.rows.reduce((s, r) => s + Number(r.total), 0)).toBe(61);

    const xlsx = await call('GET', `${reportPath('access', 'exportXls')}?${new URLSearchParams({ kind: 'accessByDoor', begin: BEGIN, end: END })}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const sheet = await sheetRows(xlsx.rawPayload);
    expect(sheet[0]).toEqual(['Door', 'Device', 'Passed', 'Refused', 'Total']);
    expect(sheet.slice(1)).toEqual(result.rows.map((r) => [r.door, r.device, r.passed, r.refused, r.total]));
  });

  it('counts passages by person, by area and by hour, with filters', async () => {
    const byPerson = await report('accessByPerson');
    for (const row of byPerson.rows) {
      const peopleId = row.key === '-' ? null : (row.key as string);
      expect(row.total).toBe(await countEvents((q) => (peopleId ? q.where('people_id', '=', peopleId) : q.where('people_id', 'is', null))));
    }
    expect(byPerson.rows.find((r) => r.person === 'Ann')?.userNo).toBe('U1');
    expect(byPerson.rows.find((r) => r.key === '-')?.person).toBeNull();

    const byArea = await report('accessByArea');
    expect(byArea.rows.map((r) => r.area).sort()).toEqual(['Hall', 'Lab']);
    const inLab = await countEvents((q) => q.where('door_id', 'in', [ids.sideDoor!, ids.labDoor!]));
    expect(byArea.rows.find((r) => r.area === 'Lab')?.total).toBe(inLab);

    const byHour = await report('accessByHour');
    expect(byHour.rows).toHaveLength(24);
    for (const row of byHour.rows) {
      const h = Number(row.hour);
      const from = new Date(DAY_START + h * 3_600_000).toISOString();
      const to = new Date(DAY_START + (h + 1) * 3_600_000).toISOString();
      expect(row.total, `hour ${h}`).toBe(await countEvents((q) => q.where('event_time', '>=', from).where('event_time', '<', to)));
    }

    // filters: a door, a person, a group, an area, a device
    const front = await report('accessByHour', { doorId: ids.frontDoor! });
    expect(front.rows.reduce((s, r) => s + Number(r.total), 0)).toBe(await countEvents((q) => q.where('door_id', '=', ids.frontDoor!)));
    const ann = await report('accessByDoor', { peopleId: ids.ann! });
    expect(ann.rows.reduce((s, r) => s + Number(r.total), 0)).toBe(await countEvents((q) => q.where('people_id', '=', ids.ann!)));
    const guests = await report('accessByPerson', { departId: ids.g2! });
    expect(guests.rows.map((r) => r.person)).toEqual(['Bob']);
    const hall = await report('accessByDoor', { areaId: ids.hall! });
    expect(hall.rows.map((r) => r.door)).toEqual(['Front door']);
    const lab = await report('accessByDoor', { deviceId: ids.d2! });
    expect(lab.rows.map((r) => r.door)).toEqual(['Lab door']);
  });

  it('counts denials by reason, and names the reasons in the xlsx', async () => {
    const result = await report('denialsByReason');
    for (const reason of ['unknown', 'outsideTime']) {
      expect(result.rows.find((r) => r.reason === reason)?.count).toBe(await countEvents((q) => q.where('kind', '=', 'denial').where('detail', '=', reason)));
    }
    const xlsx = await call('GET', `${reportPath('access', 'exportXls')}?${new URLSearchParams({ kind: 'denialsByReason', begin: BEGIN, end: END })}`);
    const sheet = await sheetRows(xlsx.rawPayload);
    const names: Record<string, string> = { unknown: 'Unknown card or person', outsideTime: 'Outside the allowed time' };
    expect(sheet.slice(1)).toEqual(result.rows.map((r) => [names[r.reason as string], r.count]));
  });

  it('counts alarms by code and device, and door held-open and forced-open times', async () => {
    const alarms = await report('alarmsByCode');
    for (const row of alarms.rows) {
      const [code, deviceId] = (row.key as string).split('|');
      const own = await t.app.db
        .selectFrom('sys_device_alarm')
        .select([sql<number>`count(*)`.as('n'), sql<number>`sum(alarm_count)`.as('events')])
        .where('tenant_id', '=', tenantA)
        .where('code', '=', code!)
        .where('device_id', '=', deviceId!)
        .executeTakeFirstOrThrow();
      expect(row.count).toBe(Number(own.n));
      expect(row.events).toBe(Number(own.events));
    }
    expect(alarms.rows.find((r) => r.code === 'tamper')).toMatchObject({ device: 'Lab controller', count: 2, events: 4 });

    const open = await report('doorOpenTimes');
    expect(open.rows.find((r) => r.code === 'heldOpen' && r.device === 'Front controller')).toMatchObject({ count: 2, measured: 2, totalSeconds: 120, longestSeconds: 90 });
    expect(open.rows.find((r) => r.code === 'forcedOpen')).toMatchObject({ count: 1, measured: 0, totalSeconds: 0, longestSeconds: 0 });
    expect(open.rows.find((r) => r.code === 'heldOpen' && r.device === 'Lab controller')).toMatchObject({ count: 1, measured: 1, totalSeconds: 600, longestSeconds: 600 });
    expect(open.rows.some((r) => r.code === 'tamper')).toBe(false);
    const hall = await report('doorOpenTimes', { areaId: ids.hall! });
    expect(hall.rows.map((r) => r.device)).toEqual(['Front controller', 'Front controller']);

    const xlsx = await call('GET', `${reportPath('alarm', 'exportXls')}?${new URLSearchParams({ kind: 'doorOpenTimes', begin: BEGIN, end: END })}`, undefined, admin, 'zh-CN');
    const sheet = await sheetRows(xlsx.rawPayload);
    expect(sheet[0]).toEqual(['设备', '告警', '次数', '已结束次数', '总时长（秒）', '最长（秒）']);
    const codes: Record<string, string> = { heldOpen: '门长时间未关', forcedOpen: '门被强行打开' };
    expect(sheet.slice(1)).toEqual(open.rows.map((r) => [r.device, codes[r.code as string], r.count, r.measured, r.totalSeconds, r.longestSeconds]));
  });

  it('shows a tenant its own rows only', async () => {
    const doors = await report('accessByDoor', {}, readerB);
    expect(doors.rows.map((r) => [r.door, r.total])).toEqual([['B door', 7]]);
    const alarms = await report('alarmsByCode', {}, readerB);
    expect(alarms.rows.map((r) => [r.device, r.code, r.count])).toEqual([['B controller', 'heldOpen', 1]]);
    // a filter naming another tenant's door finds nothing
    expect((await report('accessByDoor', { doorId: ids.frontDoor! }, readerB)).rows).toEqual([]);
    // and the export needs its own permission
    const xlsx = await call('GET', `${reportPath('access', 'exportXls')}?${new URLSearchParams({ kind: 'accessByDoor', begin: BEGIN, end: END })}`, undefined, readerB);
    expect(xlsx.statusCode).toBe(403);
  });

  it('refuses a period over 366 days, one that ends before it begins and a report of another screen, in the reader’s language', async () => {
    const long = await call('GET', `${reportPath('access', 'run')}?${new URLSearchParams({ kind: 'accessByDoor', begin: '2024-01-01 00:00:00', end: '2025-01-02 00:00:01' })}`, undefined, admin, 'zh-CN');
    expect(long.statusCode).toBe(400);
    expect(long.envelope.message).toBe('报表时段最长 366 天');
    const reversed = await call('GET', `${reportPath('access', 'run')}?${new URLSearchParams({ kind: 'accessByDoor', begin: END, end: BEGIN })}`);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.envelope.message).toBe('The period must end after it begins');
    const notATime = await call('GET', `${reportPath('access', 'run')}?${new URLSearchParams({ kind: 'accessByDoor', begin: 'soon', end: END })}`);
    expect(notATime.statusCode).toBe(400);
    const wrongScreen = await call('GET', `${reportPath('access', 'run')}?${new URLSearchParams({ kind: 'alarmsByCode', begin: BEGIN, end: END })}`);
    expect(wrongScreen.statusCode).toBe(400);
  });

  it('mails a scheduled report to the chosen users through the message template, when its job fires', async () => {
    const template = { template_code: `report_mail_${dialect}`, template_name: 'Report: ${reportName}', template_content: '<p>${reportName} from ${begin} to ${end}</p>${table}', template_type: '2', template_test_json: null };
    await t.app.db.insertInto('sys_message_template').values({ ...AUDIT, id: randomUUID(), ...template, tenant_id: tenantA }).execute();
    const carol = await createTestUser(t.app, `carol-${dialect}`);
    const dave = await createTestUser(t.app, `dave-${dialect}`);
    await t.app.db.updateTable('sys_user').set({ email: 'carol@example.com', lang: 'en-US' }).where('id', '=', carol).execute();
    await t.app.db.updateTable('sys_user').set({ email: 'dave@example.com', lang: 'zh-CN' }).where('id', '=', dave).execute();
    const stranger = await createTestUser(t.app, `stranger-${dialect}`, { tenantId: tenantB });

    const body = { reportKind: 'accessByDoor', period: 'lastDay', filters: {}, recipients: [carol, dave], templateCode: template.template_code, cronExpression: '0 0 6 * * ?' };
    // recipients must be users of the scheduler's tenant
    const refused = await call('POST', reportPath('access', 'scheduleAdd'), { ...body, recipients: [carol, stranger] });
    expect(refused.envelope.success).toBe(false);
    expect(refused.envelope.message).toBe(`Recipient ${stranger} is not a user of this tenant`);
    const wrongScreen = await call('POST', reportPath('alarm', 'scheduleAdd'), body);
    expect(wrongScreen.statusCode).toBe(400);

    const added = await call<{ id: string }>('POST', reportPath('access', 'scheduleAdd'), body);
    expect(added.envelope.success, added.envelope.message).toBe(true);
    const listed = await call<ReportSchedule[]>('GET', reportPath('access', 'scheduleList'));
    expect(listed.envelope.result.map((s) => [s.reportKind, s.recipientNames])).toEqual([['accessByDoor', [`carol-${dialect}`, `dave-${dialect}`]]]);
    expect((await call<ReportSchedule[]>('GET', reportPath('access', 'scheduleList'), undefined, readerB)).statusCode).toBe(403);

    // the job scheduler holds it, and its firing (the day after the fixture's day) mails the day's report
    const job = await t.app.db.selectFrom('sys_quartz_job').selectAll().where('parameter', '=', added.envelope.result.id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ job_class_name: 'reportSchedule', cron_expression: '0 0 6 * * ?', status: 0 });
    expect(t.app.jobScheduler.isScheduled(job.id)).toBe(true);
    t.clock.advance(Date.parse('2026-11-11T06:00:00Z') - t.clock.now());
    smtp.mails.splice(0);
    const outcome = await t.app.jobScheduler.fire(job.id, new Date(t.clock.now()), true);
    expect(outcome, outcome.message).toMatchObject({ ran: true, success: true });
    expect(outcome.message).toBe('Recipients the report was sent to: 2');
    expect(smtp.mails.map((m) => m.to).sort()).toEqual([['carol@example.com'], ['dave@example.com']]);
    const toCarol = smtp.mails.find((m) => m.to[0] === 'carol@example.com')!.raw.replace(/=\r?\n/g, '');
    expect(toCarol).toContain('Subject: Report: Access by door');
    expect(toCarol).toContain('Access by door from 2026-11-10 00:00:00 to 2026-11-11 00:00:00');
    const figures = await report('accessByDoor');
    for (const row of figures.rows) expect(toCarol).toContain(`<td>${row.door}</td><td>${row.device}</td><td>${row.passed}</td><td>${row.refused}</td><td>${row.total}</td>`);
    expect(toCarol).toContain('<th>Door</th>');
    const toDave = smtp.mails.find((m) => m.to[0] === 'dave@example.com')!.raw;
    expect(toDave).toMatch(/Subject: =\?UTF-8\?/);
    // each send is a message of the message center, of the schedule's tenant
    const messages = await t.app.db.selectFrom('sys_message').select(['es_receiver', 'es_send_status', 'tenant_id']).where('remark', '=', `template ${template.template_code}`).execute();
    expect(messages.map((m) => m.es_receiver).sort()).toEqual(['carol@example.com', 'dave@example.com']);
    expect(messages.every((m) => m.tenant_id === tenantA)).toBe(true);

    // sending by hand does the same; removing the schedule removes its job
    smtp.mails.splice(0);
    const now = await call<{ outcome: string }>('POST', reportPath('access', 'scheduleSend'), { id: added.envelope.result.id });
    expect(now.envelope.success, now.envelope.message).toBe(true);
    expect(smtp.mails).toHaveLength(2);
    expect((await call('DELETE', `${reportPath('access', 'scheduleDelete')}?id=${added.envelope.result.id}`)).envelope.success).toBe(true);
    expect(await t.app.db.selectFrom('sys_quartz_job').select('id').where('id', '=', job.id).executeTakeFirst()).toBeUndefined();
    expect(t.app.jobScheduler.isScheduled(job.id)).toBe(false);
  });
});
