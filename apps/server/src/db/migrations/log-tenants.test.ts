import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTestUser, testDialects, type TestApp } from '../../test/harness.ts';
import { backfillLogTenants } from './0830-log-tenants.ts';

const dialects = await testDialects();

describe.each(dialects)('log entries written before tenants on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  it('take the tenant of the row they copy, else of the user who acted; none when neither has one', async () => {
    const db = t.app.db;
    const audit = { create_time: '2026-01-01T00:00:00.000Z', update_by: null, update_time: null };
    await createTestUser(t.app, 'old_a', { tenantId: 'tenant-a' });
    await createTestUser(t.app, 'old_free', { tenantId: null });
    const user = async (username: string) => (await db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const [a, free] = [await user('old_a'), await user('old_free')];
    const postOfB = randomUUID();
    await db.insertInto('sys_position').values({ ...audit, id: postOfB, create_by: 'admin', code: 'OLD1', name: 'Old post', post_rank: '1', tenant_id: 'tenant-b' }).execute();

    const log = (username: string, userid: string | null) => ({ ...audit, id: randomUUID(), create_by: username, log_type: 2, operate_type: 3, content: 'old', userid, username, ip: '127.0.0.1', cost_time: 1, tenant_id: null });
    const logs = [log('old_a', a), log('old_free', free), log('gone', randomUUID())];
    await db.insertInto('sys_log').values(logs).execute();
    const version = (table: string, dataId: string, by: string) => ({ ...audit, id: randomUUID(), create_by: by, data_table: table, data_id: dataId, data_content: '{}', data_version: 1, tenant_id: null });
    // the administrator changed tenant B's post; tenant A's user changed a dictionary (a table without tenants)
    const versions = [version('sys_position', postOfB, 'old_a'), version('sys_dict', randomUUID(), 'old_a'), version('sys_dict', randomUUID(), 'old_free')];
    await db.insertInto('sys_data_log').values(versions).execute();

    await backfillLogTenants(db);

    const tenantOf = async (table: 'sys_log' | 'sys_data_log', id: string) => (await db.selectFrom(table).select('tenant_id').where('id', '=', id).executeTakeFirstOrThrow()).tenant_id;
    expect(await Promise.all(logs.map((l) => tenantOf('sys_log', l.id)))).toEqual(['tenant-a', null, null]);
    expect(await Promise.all(versions.map((v) => tenantOf('sys_data_log', v.id)))).toEqual(['tenant-b', 'tenant-a', null]);
  });
});
