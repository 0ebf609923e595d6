import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiPath, crudPath, dictItemEntity, dictItemsPath, type DictOption } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { TestNamespace } from '../test/harness.ts';
import { adminToken, api, buildInstancePair, buildTestApp, injectAs, redisReachable, type InstancePair, type TestApp } from '../test/harness.ts';

async function options(app: FastifyInstance, token: string, code: string, lang = 'en-US') {
  const answer = await injectAs<DictOption[]>(app, token, { method: 'GET', url: api(app, dictItemsPath(code)), headers: { lang } });
  expect(answer.statusCode).toBe(200);
  return answer;
}

const texts = async (app: FastifyInstance, token: string, code: string, lang?: string) => (await options(app, token, code, lang)).envelope.result.map((o) => o.text);

/** Renames the `sex` dictionary's item of value 1 through the console's own edit call. */
async function renameMale(app: FastifyInstance, token: string, itemText: string): Promise<void> {
  const item = await app.db
    .selectFrom('sys_dict_item as i')
    .innerJoin('sys_dict as d', 'd.id', 'i.dict_id')
    .select(['i.id', 'i.dict_id', 'i.sort_order'])
    .where('d.dict_code', '=', 'sex')
    .where('i.item_value', '=', '1')
    .executeTakeFirstOrThrow();
  const edited = await injectAs(app, token, {
    method: 'PUT',
    url: api(app, crudPath(dictItemEntity, 'edit')),
    payload: { id: item.id, dictId: item.dict_id, itemText, itemValue: '1', sortOrder: item.sort_order, status: 1 },
  });
  expect(edited.envelope.success, edited.envelope.message).toBe(true);
}

/** Renames the `sex` item of value 1 as a script on the database would: on a connection of its own, no server told. */
function renameMaleOutside(namespace: TestNamespace, itemText: string): void {
  const outside = new Sqlite(namespace.databaseUrl);
  try {
    const renamed = outside
      .prepare("update sys_dict_item set item_text = ? where item_value = '1' and dict_id = (select id from sys_dict where dict_code = 'sex')")
      .run(itemText);
    expect(renamed.changes).toBe(1);
  } finally {
    outside.close();
  }
}

async function reloadDictionaries(app: FastifyInstance, token: string): Promise<void> {
  const reloaded = await injectAs(app, token, { method: 'GET', url: api(app, ApiPath.dictRefreshCache) });
  expect(reloaded.envelope.success, reloaded.envelope.message).toBe(true);
}

describe('getDictItems answers', () => {
  let test: TestApp;
  let admin: string;

  beforeAll(async () => {
    test = await buildTestApp('sqlite');
    admin = await adminToken(test.app);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('are JSON envelopes with every security header, each with its own time', async () => {
    const first = await options(test.app, admin, 'sex');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(Object.keys(first.envelope)).toEqual(['success', 'message', 'code', 'result', 'timestamp']);
    expect(first.envelope).toMatchObject({ success: true, message: 'Operation succeeded', code: 200 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await options(test.app, admin, 'sex')).envelope.timestamp).toBeGreaterThan(first.envelope.timestamp);
  });

  it('follow a renamed item at once, in every language, with times on the wire as in any answer', async () => {
    expect(await texts(test.app, admin, 'sex')).toEqual(['Male', 'Female']);
    expect(await texts(test.app, admin, 'sex', 'zh-CN')).toEqual(['男', '女']);
    await renameMale(test.app, admin, 'Man');
    expect(await texts(test.app, admin, 'sex')).toEqual(['Man', 'Female']);
    expect(await texts(test.app, admin, 'sex', 'zh-CN')).toEqual(['Man', '女']);
    await renameMale(test.app, admin, '2024-05-01T08:00:00.000Z');
    expect(await texts(test.app, admin, 'sex')).toEqual(['2024-05-01 08:00:00', 'Female']);
  });

  it('come from the copy this instance keeps: a warm call reads neither the shared cache nor a table', async () => {
    await texts(test.app, admin, 'sex');
    const cacheReads = vi.spyOn(test.app.cache, 'get');
    const tableReads = vi.spyOn(test.app.db, 'selectFrom');
    try {
      expect((await options(test.app, admin, 'sex')).envelope.result).toHaveLength(2);
      expect(cacheReads).not.toHaveBeenCalled();
      expect(tableReads).not.toHaveBeenCalled();
    } finally {
      cacheReads.mockRestore();
      tableReads.mockRestore();
    }
  });

  it('follow an item changed outside the console once the dictionary screen asks for a reload', async () => {
    await renameMale(test.app, admin, 'Male');
    expect(await texts(test.app, admin, 'sex')).toEqual(['Male', 'Female']);
    renameMaleOutside(test.namespace, 'Gentleman');
    await reloadDictionaries(test.app, admin);
    expect(await texts(test.app, admin, 'sex')).toEqual(['Gentleman', 'Female']);
  });
});

describe.skipIf(!(await redisReachable()))('getDictItems on two instances sharing Redis', () => {
  let pair: InstancePair;

  beforeAll(async () => {
    pair = await buildInstancePair();
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('an item renamed on one instance is renamed in the other’s next answer, whose copy was warm', async () => {
    const { a, b } = pair;
    const admin = await adminToken(a.app);
    expect(await texts(b.app, admin, 'sex')).toEqual(['Male', 'Female']);
    expect(await texts(b.app, admin, 'sex')).toEqual(['Male', 'Female']);
    await renameMale(a.app, admin, 'Man');
    expect(await texts(b.app, admin, 'sex')).toEqual(['Man', 'Female']);
  });

  it('a reload asked for on one instance reads the tables again on the other', async () => {
    const { a, b } = pair;
    const admin = await adminToken(a.app);
    await renameMale(a.app, admin, 'Male');
    expect(await texts(b.app, admin, 'sex')).toEqual(['Male', 'Female']);
    renameMaleOutside(a.namespace, 'Gentleman');
    await reloadDictionaries(a.app, admin);
    expect(await texts(b.app, admin, 'sex')).toEqual(['Gentleman', 'Female']);
  });
});
