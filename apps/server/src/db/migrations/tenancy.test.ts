import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, defaultTenantId, testDialects, type TestApp } from '../../test/harness.ts';
import { backfillDefaultTenant } from './0900-tenancy.ts';

describe.each(await testDialects())('rows written before announcements, messages and templates had tenants on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  it('are given the default tenant, and rows that have a tenant keep it', async () => {
    const db = t.app.db;
    const audit = { create_by: 'old', create_time: '2026-01-01T00:00:00.000Z', update_by: null, update_time: null };
    const ids = { annt: randomUUID(), send: randomUUID(), message: randomUUID(), template: randomUUID(), log: randomUUID(), kept: randomUUID() };
    await db
      .insertInto('sys_announcement')
      .values({ ...audit, id: ids.annt, titile: 'Old', msg_content: null, start_time: null, end_time: null, sender: 'old', priority: 'L', msg_category: '1', msg_type: 'ALL', user_ids: null, send_status: '1', send_time: null, cancel_time: null, open_type: null, open_page: null, bus_id: null, type: 'word', theme: null, channels: null, background_image: null, attachments: null, video: null, del_flag: 0, tenant_id: null })
      .execute();
    await db.insertInto('sys_announcement_send').values({ ...audit, id: ids.send, annt_id: ids.annt, user_id: randomUUID(), read_flag: 0, read_time: null, tenant_id: null }).execute();
    await db
      .insertInto('sys_message')
      .values({ ...audit, id: ids.message, es_title: 'Old', es_content: null, es_param: null, es_receiver: 'x', es_type: 'email', es_send_status: '0', es_send_num: 0, es_result: null, es_send_time: null, remark: null, tenant_id: null })
      .execute();
    await db.insertInto('sys_message_template').values({ ...audit, id: ids.template, template_code: 'old_code', template_name: 'Old', template_content: 'x', template_type: '1', template_test_json: null, tenant_id: null }).execute();
    const log = (id: string, tenantId: string | null) => ({ ...audit, id, log_type: 1, operate_type: 1, content: 'old', userid: null, username: 'old', ip: null, cost_time: 0, tenant_id: tenantId });
    await db.insertInto('sys_log').values([log(ids.log, null), log(ids.kept, 'another-tenant')]).execute();

    await backfillDefaultTenant(db);

    const expected = await defaultTenantId(t.app);
    const tenantOf = async (table: 'sys_announcement' | 'sys_announcement_send' | 'sys_message' | 'sys_message_template' | 'sys_log', id: string) =>
      (await db.selectFrom(table).select('tenant_id').where('id', '=', id).executeTakeFirstOrThrow()).tenant_id;
    expect(await tenantOf('sys_announcement', ids.annt)).toBe(expected);
    expect(await tenantOf('sys_announcement_send', ids.send)).toBe(expected);
    expect(await tenantOf('sys_message', ids.message)).toBe(expected);
    expect(await tenantOf('sys_message_template', ids.template)).toBe(expected);
    expect(await tenantOf('sys_log', ids.log)).toBe(expected);
    expect(await tenantOf('sys_log', ids.kept)).toBe('another-tenant');
  });
});
