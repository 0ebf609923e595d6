import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiPath, crudPath, tenantEntity, userEntity, type CrudVerbName, type Page, type PermissionResult } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { adminToken, api, buildTestApp, createTestUser, injectAs, testDialects, type TestApp } from '../test/harness.ts';
import { envelopeToWire, formatWireTime, isStoredInstant, isTimeZone, machineTimeZone, parseWireTime, toWire } from './wire-time.ts';

describe('wire times', () => {
  it('formats a stored instant as yyyy-MM-dd HH:mm:ss in the zone, with and without summer time', () => {
    expect(formatWireTime('2024-01-15T03:04:05.678Z', 'Asia/Tokyo')).toBe('2024-01-15 12:04:05');
    expect(formatWireTime('2024-01-15T23:30:00.000Z', 'Asia/Tokyo')).toBe('2024-01-16 08:30:00');
    expect(formatWireTime('2024-01-15T12:00:00.000Z', 'Europe/Berlin')).toBe('2024-01-15 13:00:00');
    expect(formatWireTime('2024-07-15T12:00:00.000Z', 'Europe/Berlin')).toBe('2024-07-15 14:00:00');
    expect(formatWireTime(new Date('2024-07-15T00:00:00Z'), 'UTC')).toBe('2024-07-15 00:00:00');
    expect(formatWireTime('2024-07-15T12:00:00+09:00', 'UTC')).toBe('2024-07-15 03:00:00');
  });

  it('reads a wall-clock time in the zone and ISO 8601 with an offset as the same stored UTC instant', () => {
    expect(parseWireTime('2024-01-15 12:04:05', 'Asia/Tokyo')).toBe('2024-01-15T03:04:05.000Z');
    expect(parseWireTime('2024-01-15T12:04:05+09:00', 'Asia/Tokyo')).toBe('2024-01-15T03:04:05.000Z');
    expect(parseWireTime('2024-01-15T03:04:05.000Z', 'Europe/Berlin')).toBe('2024-01-15T03:04:05.000Z');
    expect(parseWireTime('2024-01-15 12:04', 'Asia/Tokyo')).toBe('2024-01-15T03:04:00.000Z');
    expect(parseWireTime('2024-01-15', 'Asia/Tokyo')).toBe('2024-01-14T15:00:00.000Z');
    expect(parseWireTime('2024-07-15 14:00:00', 'Europe/Berlin')).toBe('2024-07-15T12:00:00.000Z');
    expect(parseWireTime('2024-01-15 13:00:00', 'Europe/Berlin')).toBe('2024-01-15T12:00:00.000Z');
  });

  it('takes the earlier of a twice-lived hour and moves a skipped one forward, as java.time does', () => {
    // 2024-10-27 02:30 happens at +02:00 and again at +01:00 in Berlin
    expect(parseWireTime('2024-10-27 02:30:00', 'Europe/Berlin')).toBe('2024-10-27T00:30:00.000Z');
    // 2024-03-31 02:30 does not happen in Berlin: it is 03:30 summer time
    expect(parseWireTime('2024-03-31 02:30:00', 'Europe/Berlin')).toBe('2024-03-31T01:30:00.000Z');
    expect(formatWireTime('2024-03-31T01:30:00.000Z', 'Europe/Berlin')).toBe('2024-03-31 03:30:00');
    for (const text of ['2024-10-27 01:59:59', '2024-10-27 03:00:00', '2024-03-31 01:59:59', '2024-03-31 03:00:00']) {
      expect(formatWireTime(parseWireTime(text, 'Europe/Berlin') as string, 'Europe/Berlin')).toBe(text);
    }
  });

  it('keeps a date a calendar day in every zone', () => {
    expect(parseWireTime('1990-05-01', 'Pacific/Kiritimati', 'date')).toBe('1990-05-01');
    expect(parseWireTime('1990-05-01', 'America/Los_Angeles', 'date')).toBe('1990-05-01');
    // an instant given for a date counts as its day in the site zone
    expect(parseWireTime('1990-04-30T15:00:00.000Z', 'Asia/Tokyo', 'date')).toBe('1990-05-01');
    expect(parseWireTime('1990-02-30', 'UTC', 'date')).toBeNull();
  });

  it('refuses anything else', () => {
    for (const text of ['', 'yesterday', '2024-13-01', '2024-02-30 10:00:00', '2024-01-15 24:00:00', '2024-01-15 10:61', '15/01/2024', '2024-01-15T10:00:00+25:00', '1705312800', '2024-01-15 10:00:00 +09:00']) {
      expect(parseWireTime(text, 'Asia/Tokyo'), text).toBeNull();
    }
  });

  it('rewrites stored instants only: numbers, dates, user text and other objects stay', () => {
    const answer = {
      success: true,
      message: 'ok',
      code: 200,
      timestamp: 1_705_312_800_000,
      result: {
        records: [{ createTime: '2024-01-15T03:04:05.678Z', birthday: '1990-05-01', note: 'met at 2024-01-15T03:04:05Z', count: 3, at: new Date('2024-01-15T03:04:05Z') }],
        nested: { deep: ['2024-07-15T12:00:00+02:00', null] },
      },
    };
    const wired = envelopeToWire(answer, 'Asia/Tokyo');
    expect(wired.timestamp).toBe(1_705_312_800_000);
    expect(wired.result.records[0]).toEqual({ createTime: '2024-01-15 12:04:05', birthday: '1990-05-01', note: 'met at 2024-01-15T03:04:05Z', count: 3, at: '2024-01-15 12:04:05' });
    expect(wired.result.nested.deep).toEqual(['2024-07-15 19:00:00', null]);
    // the original answer is not changed, and a payload that is no envelope (the API description) passes as it is
    expect(answer.result.records[0]?.createTime).toBe('2024-01-15T03:04:05.678Z');
    const document = { openapi: '3.0.3', example: '2024-01-15T03:04:05Z' };
    expect(envelopeToWire(document, 'Asia/Tokyo')).toBe(document);
    expect(toWire('2024-01-15T03:04:05Z', 'UTC')).toBe('2024-01-15 03:04:05');
  });

  it('formats every instant as the zone’s own rules do, across summer time changes and historic odd offsets', () => {
    const zones = ['Asia/Shanghai', 'Asia/Tokyo', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'UTC'];
    const formats = new Map(zones.map((zone) => [zone, new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })]));
    const intl = (ms: number, zone: string) => formats.get(zone)!.format(new Date(ms)).replace(', ', ' ');
    // around the 2026 changes (every minute of the hours around them), and once a week since 1890 (local mean times)
    const instants: number[] = [];
    for (const day of ['2026-03-08', '2026-03-29', '2026-04-05', '2026-10-04', '2026-10-25', '2026-11-01']) {
      const midnight = Date.parse(`${day}T00:00:00Z`);
      for (let m = -12 * 60; m <= 36 * 60; m += 7) instants.push(midnight + m * 60_000 + 17_000);
    }
    for (let ms = Date.parse('1890-01-01T00:00:00Z'); ms < Date.parse('2040-01-01T00:00:00Z'); ms += 7 * 86_400_000 + 3_917_000) instants.push(ms);
    for (const zone of zones) {
      const wrong = instants.filter((ms) => formatWireTime(ms, zone) !== intl(ms, zone)).slice(0, 3);
      expect(wrong.map((ms) => [zone, new Date(ms).toISOString(), formatWireTime(ms, zone), intl(ms, zone)])).toEqual([]);
    }
  });

  it('rewrites exactly the stored instants, each text in each zone on its own (its wire text is remembered)', () => {
    const texts = [
      ['2024-01-15T03:04:05Z', true],
      ['2024-01-15T03:04:05.123456789+09:00', true],
      ['2024-01-15T03:04:05.1234567890+09:00', false],
      ['2024-01-15 03:04:05', false],
      ['2024-01-15T03:04:05', false],
      ['2024-13-15T03:04:05Z', false],
      ['2024/01/15T03:04:05Z', false],
      ['Chen 12988 2024-01-15', false],
      ['', false],
    ] as const;
    for (const [text, instant] of texts) expect([text, isStoredInstant(text)]).toEqual([text, instant]);
    for (let round = 0; round < 2; round++) {
      expect(toWire(['2024-01-15T23:30:00.000Z', 'Wang 1'], 'Asia/Tokyo')).toEqual(['2024-01-16 08:30:00', 'Wang 1']);
      expect(toWire(['2024-01-15T23:30:00.000Z', 'Wang 1'], 'Europe/Berlin')).toEqual(['2024-01-16 00:30:00', 'Wang 1']);
      expect(toWire('2024-01-15T23:30:00.000Z', 'UTC')).toBe('2024-01-15 23:30:00');
    }
  });

  it('knows IANA zones only', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Asia/Nowhere')).toBe(false);
    expect(isTimeZone('+09:00')).toBe(false);
  });

  it('answers in UTC and finds a machine on UTC without Intl (its first use is about 10 ms of a start)', () => {
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    const tz = process.env.TZ;
    try {
      for (const zone of ['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Zulu']) {
        expect(isTimeZone(zone)).toBe(true);
        expect(formatWireTime('2024-07-15T12:00:00+09:00', zone)).toBe('2024-07-15 03:00:00');
        expect(parseWireTime('2024-07-15 03:00:00', zone)).toBe('2024-07-15T03:00:00.000Z');
      }
      process.env.TZ = 'Etc/UTC';
      expect(machineTimeZone()).toBe('UTC');
      expect(made).not.toHaveBeenCalled();
      process.env.TZ = 'Asia/Tokyo';
      expect(machineTimeZone()).toBe('Asia/Tokyo');
    } finally {
      made.mockRestore();
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
type Row = Record<string, unknown>;

describe.each(dialects)('times on the wire on %s', (dialect) => {
  describe.each(['Asia/Tokyo', 'Europe/Berlin'])('with TIME_ZONE=%s', (zone) => {
    let t: TestApp;
    let app: FastifyInstance;
    let admin: string;
    const tenantPath = (verb: CrudVerbName) => api(app, crudPath(tenantEntity, verb));
    const add = (payload: Row) => injectAs<string>(app, admin, { method: 'POST', url: tenantPath('add'), payload, headers: { lang: 'en-US' } });
    const list = (query: string) => injectAs<Page<Row>>(app, admin, { method: 'GET', url: `${tenantPath('list')}?${query}`, headers: { lang: 'en-US' } });
    const stored = async (code: string) => app.db.selectFrom('sys_tenant').select(['begin_date', 'end_date', 'create_time']).where('code', '=', code).executeTakeFirstOrThrow();
    // winter and summer: Berlin is +01:00 and +02:00, Tokyo +09:00 in both
    const winter = { wire: '2024-01-15 08:30:00', utc: zone === 'Asia/Tokyo' ? '2024-01-14T23:30:00.000Z' : '2024-01-15T07:30:00.000Z' };
    const summer = { wire: '2024-07-15 08:30:00', utc: zone === 'Asia/Tokyo' ? '2024-07-14T23:30:00.000Z' : '2024-07-15T06:30:00.000Z' };

    beforeAll(async () => {
      t = await buildTestApp(dialect, { env: { TIME_ZONE: zone } });
      app = t.app;
      admin = await adminToken(app);
    });
    afterAll(async () => {
      await t.close();
    });

    it('stores a wall-clock time of the zone and the same instant given with an offset as one UTC instant, and answers it in the zone', async () => {
      const wall = await add({ name: 'Wall clock', code: `W-${dialect}`, beginDate: winter.wire, endDate: summer.wire });
      expect(wall.envelope.success, wall.envelope.message).toBe(true);
      const isoWinter = new Date(winter.utc).toISOString();
      const isoSummer = new Date(summer.utc).toISOString().replace('.000Z', '+00:00');
      const iso = await add({ name: 'With offset', code: `O-${dialect}`, beginDate: isoWinter, endDate: isoSummer });
      expect(iso.envelope.success, iso.envelope.message).toBe(true);
      for (const code of [`W-${dialect}`, `O-${dialect}`]) expect(await stored(code)).toMatchObject({ begin_date: winter.utc, end_date: summer.utc });

      const records = (await list(`code=*-${dialect}&column=code&order=asc`)).envelope.result.records;
      expect(records.map((r) => [r.code, r.beginDate, r.endDate])).toEqual([
        [`O-${dialect}`, winter.wire, summer.wire],
        [`W-${dialect}`, winter.wire, summer.wire],
      ]);
      // the audit times too: the clock's instant in the zone, to the second
      const created = (await stored(`W-${dialect}`)).create_time as string;
      expect(records[1]?.createTime).toBe(formatWireTime(created, zone));
      expect(records[1]?.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const one = await injectAs<Row>(app, admin, { method: 'GET', url: `${tenantPath('queryById')}?id=${records[1]?.id as string}` });
      expect(one.envelope.result).toMatchObject({ beginDate: winter.wire, endDate: summer.wire });
      expect(typeof one.envelope.timestamp).toBe('number');
    });

    it('reads range filters in the zone, a date-only end taking its whole day', async () => {
      const codes = async (query: string) => (await list(`${query}&code=*-${dialect}&column=code&order=asc`)).envelope.result.records.map((r) => r.code);
      expect(await codes('beginDate_begin=2024-01-15%2008:30:00&beginDate_end=2024-01-15%2008:30:00')).toEqual([`O-${dialect}`, `W-${dialect}`]);
      expect(await codes('beginDate_begin=2024-01-15%2008:30:01')).toEqual([]);
      expect(await codes('beginDate_end=2024-01-15%2008:29:59')).toEqual([]);
      expect(await codes('beginDate_begin=2024-01-15&beginDate_end=2024-01-15')).toEqual([`O-${dialect}`, `W-${dialect}`]);
      expect(await codes('beginDate_begin=2024-01-16')).toEqual([]);
      expect(await codes(`beginDate_begin=${encodeURIComponent(winter.utc)}&beginDate_end=${encodeURIComponent(winter.utc)}`)).toEqual([`O-${dialect}`, `W-${dialect}`]);
    });

    it('answers a time in any other form with a 400 envelope in the caller\'s language', async () => {
      const bad = await add({ name: 'Bad', code: `B-${dialect}`, beginDate: '15/01/2024 08:30' });
      expect(bad.statusCode).toBe(400);
      expect(bad.envelope).toMatchObject({ success: false, code: 400 });
      expect(bad.envelope.message).toContain('2024-01-31 08:00:00');
      const badDay = await add({ name: 'Bad', code: `B-${dialect}`, beginDate: '2024-02-30 08:30:00' });
      expect(badDay.statusCode).toBe(400);
      for (const query of ['beginDate_begin=yesterday', 'beginDate_end=2024-13-01', `superQueryParams=${encodeURIComponent(JSON.stringify([{ field: 'beginDate', rule: 'gt', val: 'soon' }]))}`]) {
        const answer = await list(query);
        expect(answer.statusCode, query).toBe(400);
        expect(answer.envelope, query).toMatchObject({ success: false, code: 400 });
      }
      const zh = await injectAs(app, admin, { method: 'GET', url: `${tenantPath('list')}?beginDate_begin=yesterday`, headers: { lang: 'zh-CN' } });
      expect(zh.statusCode).toBe(400);
      expect(zh.envelope.message).not.toBe((await list('beginDate_begin=yesterday')).envelope.message);
    });

    it('keeps a birthday a calendar day and tells the console the zone', async () => {
      const userId = await createTestUser(app, `wire-${dialect}`);
      const edit = await injectAs(app, admin, { method: 'PUT', url: api(app, crudPath(userEntity, 'edit')), payload: { id: userId, birthday: '1990-05-01' } });
      expect(edit.envelope.success, edit.envelope.message).toBe(true);
      expect((await app.db.selectFrom('sys_user').select('birthday').where('id', '=', userId).executeTakeFirstOrThrow()).birthday).toBe('1990-05-01');
      const one = await injectAs<Row>(app, admin, { method: 'GET', url: `${api(app, crudPath(userEntity, 'queryById'))}?id=${userId}` });
      expect(one.envelope.result.birthday).toBe('1990-05-01');
      const permissions = await injectAs<PermissionResult>(app, admin, { method: 'GET', url: api(app, ApiPath.userPermission) });
      expect(permissions.envelope.result.timeZone).toBe(zone);
    });
  });
});
