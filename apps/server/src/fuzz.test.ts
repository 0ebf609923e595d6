import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ApiPath, TOKEN_HEADER, crudPath, dictItemsPath, positionEntity, translate } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { forgetActivationStatus } from './modules/account/activation-service.ts';
import { SettingKey } from './modules/account/settings.ts';
import { adminToken, api, buildTestApp, injectAs, testDialects, type TestApp } from './test/harness.ts';
import { uploadFile } from './test/crud-helpers.ts';

type Schema = { [key: string]: unknown } & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Route {
  method: string;
  url: string;
  parameters: Parameter[];
  body?: Schema;
  /** the declared fields of a CRUD route's entity: its bodies and filters use them */
  fields?: string[];
}
interface Sent {
  route: Route;
  url: string;
  method: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
/** SQLite by default; FUZZ_DIALECT=postgres or mysql runs the same requests against another engine */
const DIALECT = (process.env.FUZZ_DIALECT ?? 'sqlite') as 'sqlite' | 'postgres' | 'mysql';

/** names and values that have broken lookups, parsers and queries elsewhere */
const TRICKY = ['', ' ', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', "'; drop table sys_user; --", '../../etc/passwd', '%', '%00', '\u0000', '*', '!', '*%_*', ',', 'null', 'undefined', '[]', '{}', '{"__proto__":{"x":1}}', '-1', '0', '1e309', 'NaN', '9'.repeat(30), '2024-13-45 25:61:61', 'a'.repeat(300), '😀', '<script>', 'admin', '1,2,3'];
const tricky = fc.constantFrom(...TRICKY);
const text = fc.oneof(tricky, fc.string({ maxLength: 40 }), fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/));

/** Values of a JSON schema, with some that break it (wrong types, prototype names, over-long texts). */
function valueOf(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const wild = fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean(), fc.jsonValue({ maxDepth: 2 }));
  if (!schema || depth > 4) return wild;
  const alternatives = schema.anyOf ?? schema.oneOf;
  let fitting: fc.Arbitrary<unknown>;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (alternatives?.length) fitting = fc.oneof(...alternatives.map((s) => valueOf(s, depth + 1)));
  else if (schema.enum?.length) fitting = fc.constantFrom(...schema.enum);
  else if (schema.const !== undefined) fitting = fc.constant(schema.const);
  else if (type === 'string') fitting = fc.oneof(text, fc.string({ maxLength: Math.min(schema.maxLength ?? 60, 120) }));
  else if (type === 'integer') fitting = fc.oneof(fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e9), max: Math.min(schema.maximum ?? 1e6, 1e9) }), fc.integer());
  else if (type === 'number') fitting = fc.double({ noNaN: true, noDefaultInfinity: true });
  else if (type === 'boolean') fitting = fc.boolean();
  else if (type === 'null') fitting = fc.constant(null);
  else if (type === 'array') fitting = fc.array(valueOf(schema.items, depth + 1), { maxLength: 4 });
  else if (type === 'object' || schema.properties) {
    const properties = schema.properties ?? {};
    fitting = fc.record(Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, valueOf(s, depth + 1)])), { requiredKeys: (schema.required ?? []).filter((r) => r in properties) });
  } else fitting = wild;
  return fc.oneof({ arbitrary: fitting, weight: 4 }, { arbitrary: wild, weight: 1 });
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/** Query parameters every list understands, with client-given field names (sort column, filters, super query). */
const listExtras = fc.record(
  {
    column: text,
    order: fc.constantFrom('asc', 'desc', 'ASC', '__proto__', ''),
    pageNo: fc.oneof(fc.integer().map(String), text),
    pageSize: fc.oneof(fc.integer().map(String), text),
    superQueryParams: fc.oneof(
      fc.array(fc.record({ field: text, rule: fc.constantFrom('eq', 'like', 'in', 'not_in', 'gt', 'empty', '__proto__'), val: fc.oneof(text, fc.integer(), fc.constant(null)) }), { maxLength: 3 }).map((v) => JSON.stringify(v)),
      text,
    ),
    superQueryMatchType: fc.constantFrom('and', 'or', 'x'),
    __proto__: text,
    constructor: text,
    id: text,
    ids: text,
    code: text,
    createTime_begin: text,
    createTime_end: text,
  },
  { requiredKeys: [] },
);

const contentTypes = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=----x', 'application/octet-stream', '__proto__', 'application/json; charset=utf-16');

function multipartOf(bytes: Uint8Array, cut: number, fieldName: string): { payload: Buffer; type: string } {
  const boundary = '----isps-fuzz';
  const whole = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="f.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: cut > 0 ? whole.subarray(0, Math.max(1, whole.length - cut)) : whole, type: `multipart/form-data; boundary=${boundary}` };
}

function requestOf(route: Route, token: string): fc.Arbitrary<Sent> {
  const params = (where: Parameter['in']) => route.parameters.filter((p) => p.in === where);
  const pathValues = fc.tuple(...params('path').map((p) => valueOf(p.schema)));
  const queryValues = fc.record(Object.fromEntries(params('query').map((p) => [p.name, valueOf(p.schema)])), { requiredKeys: [] });
  const takesFile = /upload|import/i.test(route.url);
  const fieldValue = fc.oneof(text, fc.integer(), fc.constant(null), fc.array(text, { maxLength: 2 }), fc.jsonValue({ maxDepth: 1 }));
  const fields = route.fields;
  const filters = fields ? fc.dictionary(fc.constantFrom(...fields.flatMap((f) => [f, `${f}_begin`, `${f}_end`])), text, { maxKeys: 3 }) : fc.constant({});
  const body = takesFile
    ? fc.record({ bytes: fc.uint8Array({ maxLength: 300 }), cut: fc.integer({ min: 0, max: 40 }), field: fc.constantFrom('file', '__proto__', 'biz') }).map(({ bytes, cut, field }) => multipartOf(bytes, cut, field))
    : fc.oneof({ arbitrary: (fields ? fc.record(Object.fromEntries([...fields, 'id', 'ids'].map((f) => [f, fieldValue])), { requiredKeys: [] }) : valueOf(route.body ?? { type: 'object', properties: {} })), weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 }, { arbitrary: fc.constantFrom('{"a":', 'not json', '', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}'), weight: 1 }).map((v) => ({
        payload: typeof v === 'string' && /^[{n]|^$/.test(v) ? v : JSON.stringify(v),
        type: 'application/json',
      }));
  return fc
    .record({
      path: pathValues,
      query: queryValues,
      extras: route.method === 'GET' ? fc.tuple(listExtras, filters).map(([a, b]) => ({ ...a, ...b })) : fc.constant({}),
      body,
      signedIn: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
      lang: fc.oneof(fc.constantFrom('en-US', 'zh-CN', 'ja-JP', 'en', 'zh', 'xx-YY', '__proto__', 'constructor', ''), text),
      tenant: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.oneof(text, fc.uuid()), weight: 1 }),
      contentType: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: contentTypes, weight: 1 }),
    })
    .map(({ path, query, extras, body, signedIn, lang, tenant, contentType }) => {
      let i = 0;
      const url = route.url.replace(/\{[^}]+\}/g, () => encodeURIComponent(asText(path[i++]) || 'x'));
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries({ ...extras, ...query })) if (value !== undefined) search.append(name, asText(value));
      const headers: Record<string, string> = { lang: lang.replace(/[^\x20-\x7e]/g, '') };
      if (signedIn) headers[TOKEN_HEADER] = token;
      if (tenant !== undefined) headers['tenant-id'] = tenant.replace(/[^\x20-\x7e]/g, '');
      const sent: Sent = { route, url: `${url}${search.size ? `?${search}` : ''}`, method: route.method, headers };
      if (route.method !== 'GET' && route.method !== 'DELETE') {
        sent.payload = body.payload;
        headers['content-type'] = contentType ?? body.type;
      }
      return sent;
    });
}

/** Routes the fuzzer leaves alone: they end its own session or connect to addresses the request names. */
const SKIPPED = [/\/logout$/, /dataSource\/test/i, /\/docs(\/|$)/];

describe('route fuzzing', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let routes: Route[];

  /**
   * The administrator signed in again. The fuzzer may have required a second factor of administrators or activation
   * (account settings are one of its routes): the fixture turns those off first, as an operator would.
   */
  async function freshAdmin(): Promise<string> {
    await app.db.updateTable('sys_setting').set({ setting_value: '0' }).where('setting_key', 'in', [SettingKey.twoFactorForAdmins, SettingKey.activationRequired]).execute();
    forgetActivationStatus();
    return adminToken(app);
  }

  beforeAll(async () => {
    t = await buildTestApp(DIALECT);
    app = t.app;
    admin = await adminToken(app);
    const entityFields = new Map<string, string[]>();
    for (const { declaration } of app.crudEntities.values()) {
      for (const action of ['list', 'add', 'edit', 'queryById', 'exportXls', 'recycleBin', 'putRecycleBin', 'delete', 'deleteBatch'] as const) {
        entityFields.set(api(app, crudPath(declaration, action)), Object.keys(declaration.fields));
      }
    }
    const document = app.swagger() as { paths: Record<string, Record<string, Operation>> };
    routes = Object.entries(document.paths).flatMap(([url, operations]) =>
      Object.entries(operations)
        .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          url,
          parameters: operation.parameters ?? [],
          body: operation.requestBody?.content?.['application/json']?.schema,
          fields: entityFields.get(url),
        })),
    ).filter((route) => !SKIPPED.some((skip) => skip.test(route.url)));
  });
  afterAll(async () => {
    await t.close();
  });

  it(`answers ${RUNS} generated requests over every documented route without a server error or a slow answer`, async () => {
    expect(routes.length).toBeGreaterThan(100);
    const samples = fc.sample(
      fc.integer({ min: 0, max: routes.length - 1 }).chain((index) => requestOf(routes[index]!, admin)),
      { numRuns: Math.max(0, RUNS - routes.length), seed: SEED },
    );
    // every route at least once, whatever the draw, within RUNS requests in all
    samples.push(...routes.flatMap((route) => fc.sample(requestOf(route, admin), { numRuns: 1, seed: SEED })));
    const failures: string[] = [];
    const tally = new Map<string, number>();
    for (const sent of samples) {
      const started = performance.now();
      const answer = await app.inject({ method: sent.method as 'GET', url: sent.url, headers: sent.headers, ...(sent.payload !== undefined ? { payload: sent.payload } : {}) });
      const ms = performance.now() - started;
      const key = `${answer.statusCode}/${/"code":(\d+)/.exec(answer.body)?.[1] ?? '-'}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
      if (process.env.FUZZ_DEBUG && answer.statusCode === 400) {
        const message = /"message":"([^"]{0,60})/.exec(answer.body)?.[1] ?? answer.body.slice(0, 60);
        tally.set(message, (tally.get(message) ?? 0) + 1);
      }
      if (answer.statusCode >= 500 || ms > 2000) {
        failures.push(`${sent.method} ${sent.url} [${JSON.stringify(sent.headers)}] ${String(sent.payload ?? '').slice(0, 200)} -> ${answer.statusCode} in ${Math.round(ms)} ms: ${answer.body.slice(0, 200)}`);
      }
      // a session the fuzzer ended by accident (a password or token change) is started again
      if (answer.statusCode === 401 && sent.headers[TOKEN_HEADER]) admin = await freshAdmin();
    }
    if (process.env.FUZZ_DEBUG) console.log(routes.length, [...tally].sort());
    // the last requests may have ended the session without a later 401 to notice it: the next tests start a fresh one
    admin = await freshAdmin();
    expect(failures).toEqual([]);
  }, 300_000);

  it('looks client-given names up as data, never as object prototypes', async () => {
    const names = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
    const get = (url: string) => injectAs(app, admin, { method: 'GET', url: api(app, url), headers: { lang: 'en-US' } });
    for (const name of names) {
      const dict = await get(dictItemsPath(name));
      expect(dict.statusCode, dict.body).toBe(200);
      expect(dict.envelope.result).toEqual([]);
      const fill = await get(ApiPath.fillRuleExecute.replace(':code', name));
      expect(fill.envelope).toMatchObject({ success: false, message: translate('en-US', 'fillRule.notFound', { code: name }) });
      const check = await get(`${ApiPath.checkRuleByCode}?ruleCode=${name}&value=x`);
      expect(check.envelope).toMatchObject({ success: false, message: translate('en-US', 'checkRule.notFound', { code: name }) });
      for (const query of [`tableName=${name}&fieldName=code&fieldVal=x`, `tableName=sys_position&fieldName=${name}&fieldVal=x`]) {
        const duplicate = await get(`${ApiPath.duplicateCheck}?${query}`);
        expect(duplicate.envelope).toMatchObject({ success: false, message: translate('en-US', 'duplicate.unsupported') });
      }
      const superQuery = encodeURIComponent(JSON.stringify([{ field: name, rule: 'eq', val: 'x' }]));
      for (const query of [`column=${name}&order=asc`, `${name}=x`, `superQueryParams=${superQuery}`, `column=${name}&${name}[]=x&order=${name}`]) {
        const list = await get(`${crudPath(positionEntity, 'list')}?${query}`);
        expect(list.statusCode, `${query}: ${list.body}`).toBe(200);
        expect(list.envelope.success).toBe(true);
      }
      const imported = await uploadFile(app, admin, crudPath(positionEntity, 'importExcel'), Buffer.from('x'), 'en-US', { [name]: 'x' });
      expect(imported.statusCode, imported.body).toBeLessThan(500);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a stored fill rule whose class or params this release cannot run, instead of failing', async () => {
    const audit = { create_by: 'test', create_time: null, update_by: null, update_time: null };
    await app.db
      .insertInto('sys_fill_rule')
      .values([
        { ...audit, id: 'fill-proto', rule_name: 'Proto', rule_code: 'proto_class', rule_class: 'toString', rule_params: null },
        { ...audit, id: 'fill-json', rule_name: 'Json', rule_code: 'bad_params', rule_class: 'randomCode', rule_params: '{"length":' },
      ])
      .execute();
    const run = (code: string) => injectAs(app, admin, { method: 'GET', url: api(app, ApiPath.fillRuleExecute.replace(':code', code)), headers: { lang: 'en-US' } });
    expect((await run('proto_class')).envelope).toMatchObject({ success: false, message: translate('en-US', 'fillRule.notFound', { code: 'proto_class' }) });
    const defaults = await run('bad_params');
    expect(defaults.envelope.success).toBe(true);
    expect(String(defaults.envelope.result)).toMatch(/^[A-Z2-9]{8}$/);
  });
});

// PostgreSQL refuses a NUL character in any text it stores or compares: such input is refused before it gets there
describe.each(await testDialects())('NUL characters in input on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 400 for a NUL character in a filter, a path or a body', async () => {
    const answers = [
      await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(positionEntity, 'list'))}?name=%00`, headers: { lang: 'en-US' } }),
      await injectAs(app, admin, { method: 'GET', url: api(app, ApiPath.fillRuleExecute.replace(':code', 'a%00b')), headers: { lang: 'en-US' } }),
      await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(positionEntity, 'add')), payload: { code: 'N0', name: 'a\u0000b', postRank: '1' }, headers: { lang: 'en-US' } }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.envelope.message).toBe(translate('en-US', 'error.badRequest', { detail: 'NUL character' }));
    }
  });
});
