import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataLogPath, LogOperateType, LogType, QuartzJobPath, RolePath, UserAdminPath, VisitorAdminPath, crudPath, dataLogEntity, logEntity, positionEntity, quartzJobEntity, roleEntity, translate, userEntity, visitorEntity, type DataLogVersion, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, defaultTenantId, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown>;

describe.each(await testDialects())('login and operation logs on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const list = (query: string, token = admin) => injectAs<Page<Row>>(app, token, { method: 'GET', url: `${api(app, crudPath(logEntity, 'list'))}?${query}`, headers: { lang: 'en-US' } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    await createRoleWith(app, 'log_reader', ['system:log:list']);
    await createTestUser(app, 'auditor', { roles: ['log_reader'] });
    await login(app, 'auditor', USER_PASSWORD);
    for (const code of ['L1', 'L2']) {
      await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(positionEntity, 'add')), payload: { code, name: code, postRank: '1' } });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists sign-ins in the login log with their own operate type', async () => {
    const logins = (await list(`logType=${LogType.login}&username=auditor`)).envelope.result.records;
    expect(logins).toHaveLength(1);
    expect(logins[0]).toMatchObject({ logType: LogType.login, operateType: LogOperateType.login, username: 'auditor' });
    expect(typeof logins[0]?.costTime).toBe('number');
  });

  it('lists changes in the operation log, searchable by content and sortable by cost time', async () => {
    const adds = (await list(`logType=${LogType.operation}&operateType=${LogOperateType.add}&content=*position*`)).envelope.result;
    expect(adds.total).toBe(2);
    const sorted = (await list(`logType=${LogType.operation}&column=costTime&order=asc`)).envelope.result.records.map((r) => Number(r.costTime));
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));
    // a sort on an unknown column or an SQL fragment is not executed
    const hostile = await list(`column=${encodeURIComponent('cost_time; drop table sys_log')}&username=${encodeURIComponent("' or 1=1 --")}`);
    expect(hostile.envelope.result.total).toBe(0);
    expect((await list('')).envelope.result.total).toBeGreaterThan(2);
  });

  it('shows each entry in the reader language, with the origin field names; plain-text entries as stored', async () => {
    await app.db
      .insertInto('sys_log')
      .values({ id: 'old-entry', log_type: LogType.operation, operate_type: LogOperateType.edit, content: 'written before messages', log_params: null, userid: null, username: 'admin', ip: '127.0.0.1', cost_time: 1, tenant_id: await defaultTenantId(app), create_by: 'admin', create_time: new Date(app.clock()).toISOString(), update_by: null, update_time: null })
      .execute();
    const read = async (lang: string, query: string) =>
      (await injectAs<Page<Row>>(app, admin, { method: 'GET', url: `${api(app, crudPath(logEntity, 'list'))}?${query}`, headers: { lang } })).envelope.result.records;
    const added = `logType=${LogType.operation}&operateType=${LogOperateType.add}&content=*Positions*&column=createTime&order=asc`;
    const zh = await read('zh-CN', added);
    expect(zh.map((r) => String(r.logContent).replace(/ \S+$/, ''))).toEqual(['职务管理：添加', '职务管理：添加']);
    expect(zh[0]).toMatchObject({ content: zh[0]?.logContent, logType_dictText: '操作日志', operateType_dictText: '添加', userid: expect.any(String) });
    expect(String((await read('ja-JP', added))[0]?.logContent)).toMatch(/^役職管理：\S+ を追加$/);
    const signIns = await read('ja-JP', `logType=${LogType.login}&username=auditor`);
    expect(signIns[0]).toMatchObject({ logContent: 'ユーザー auditor がログインしました', operateType_dictText: 'ログイン', logType_dictText: 'ログインログ' });
    const old = (await read('zh-CN', 'content=*written before*'))[0];
    expect(old).toMatchObject({ logContent: 'written before messages', content: 'written before messages' });
    const exported = await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(logEntity, 'exportXls'))}?logType=${LogType.login}&username=auditor`, headers: { lang: 'zh-CN' } });
    expect((await sheetRows(exported.rawPayload)).flat()).toContain('用户 auditor 登录成功');
    await app.db.deleteFrom('sys_log').where('id', '=', 'old-entry').execute();
  });

  it('exports the filtered log as xlsx; a reader may list but not export, and nobody may write', async () => {
    const exported = await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(logEntity, 'exportXls'))}?logType=${LogType.login}`, headers: { lang: 'en-US' } });
    expect(exported.statusCode).toBe(200);
    const sheet = await sheetRows(exported.rawPayload);
    expect(sheet[0]).toContain('Cost time (ms)');
    expect(sheet.slice(1).every((row) => row.includes('Sign in') || row.includes('Sign out'))).toBe(true);

    const reader = await login(app, 'auditor', USER_PASSWORD);
    expect((await list('', reader)).envelope.success).toBe(true);
    const refused = await injectAs(app, reader, { method: 'GET', url: api(app, crudPath(logEntity, 'exportXls')) });
    expect(refused.envelope.code).toBe(510);
    const write = await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(logEntity, 'add')), payload: { content: 'forged' } });
    expect(write.statusCode).toBe(404);
  });

  it('keeps every version of a record and compares two of them; passwords never enter the log', async () => {
    const call = <T = Row>(method: 'GET' | 'PUT' | 'POST', path: string, payload?: Row, lang = 'en-US') =>
      injectAs<T>(app, admin, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang } });
    const position = (await call<Page<Row>>('GET', `${crudPath(positionEntity, 'list')}?code=L1`)).envelope.result.records[0]!;
    await call('PUT', crudPath(positionEntity, 'edit'), { id: position.id, name: 'L1 renamed' });
    const versions = (await call<Page<Row>>('GET', `${crudPath(dataLogEntity, 'list')}?dataId=${String(position.id)}&column=dataVersion&order=asc`)).envelope.result.records;
    expect(versions.map((v) => v.dataVersion)).toEqual([1, 2]);
    expect(versions[0]).toMatchObject({ dataTable: 'sys_position', createBy: 'admin' });
    const compared = (await call<DataLogVersion[]>('GET', `${DataLogPath.compare}?dataId1=${String(versions[1]!.id)}&dataId2=${String(versions[0]!.id)}`)).envelope.result;
    expect(compared.map((v) => [v.dataVersion, v.content.name])).toEqual([[1, 'L1'], [2, 'L1 renamed']]);
    const other = (await call<Page<Row>>('GET', `${crudPath(dataLogEntity, 'list')}?dataTable=sys_position&pageSize=100`)).envelope.result.records.find((v) => v.dataId !== position.id)!;
    for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) {
      const mixed = await call('GET', `${DataLogPath.compare}?dataId1=${String(versions[0]!.id)}&dataId2=${String(other.id)}`, undefined, lang);
      expect(mixed.envelope.message).toBe(translate(lang, 'dataLog.compareTwo'));
    }
    // a visitor's password is hashed and write-only: no version holds it
    await call('POST', '/sysVistor/add', { name: 'Logged', idCard: '11010519491231002X', phone: '13600000099', category: 'general', password: '123456' });
    const visitorVersions = (await call<Page<Row>>('GET', `${crudPath(dataLogEntity, 'list')}?dataTable=sys_visitor`)).envelope.result.records;
    expect(visitorVersions).toHaveLength(1);
    const detail = (await call<Row>('GET', `${crudPath(dataLogEntity, 'queryById')}?id=${String(visitorVersions[0]!.id)}`)).envelope.result;
    expect(String(detail.dataContent)).not.toContain('password');
  });

  it('shows the entries of freezes, job runs and permission changes in the reader language', async () => {
    const call = <T = Row>(method: 'GET' | 'PUT' | 'POST', url: string, payload?: Row) => injectAs<T>(app, admin, { method, url: api(app, url), ...(payload ? { payload } : {}) });
    const idOf = async (entity: typeof userEntity, query: string) => String((await call<Page<Row>>('GET', `${crudPath(entity, 'list')}?${query}`)).envelope.result.records[0]?.id);
    const auditor = await idOf(userEntity, 'username=auditor');
    await createRoleWith(app, 'log_probe', ['system:log:list']);
    expect((await call('PUT', UserAdminPath.frozenBatch, { ids: auditor, status: 2 })).envelope.success).toBe(true);
    expect((await call('PUT', UserAdminPath.frozenBatch, { ids: auditor, status: 1 })).envelope.success).toBe(true);
    await call('POST', crudPath(quartzJobEntity, 'add'), { jobClassName: 'heartbeat', cronExpression: '0 0 2 * * ?' });
    const job = await idOf(quartzJobEntity, 'jobClassName=heartbeat');
    expect((await call('GET', `${QuartzJobPath.resume}?id=${job}`)).envelope.success).toBe(true);
    await call('POST', '/sysVistor/add', { name: 'Frozen visitor', idCard: '110105198001010032', phone: '13600000098', category: 'general', password: '123456' });
    const visitor = await idOf(visitorEntity, `phone=13600000098`);
    expect((await call('PUT', VisitorAdminPath.frozenBatch, { ids: visitor, status: 2 })).envelope.success).toBe(true);
    expect((await call('POST', RolePath.saveRolePermission, { roleId: await idOf(roleEntity, 'roleCode=log_probe'), permissionIds: '' })).envelope.success).toBe(true);
    const read = async (lang: string) =>
      (await injectAs<Page<Row>>(app, admin, { method: 'GET', url: `${api(app, crudPath(logEntity, 'list'))}?logType=${LogType.operation}&operateType=${LogOperateType.edit}&pageSize=100`, headers: { lang } })).envelope.result.records.map((r) => String(r.logContent));
    const zh = await read('zh-CN');
    expect(zh).toEqual(expect.arrayContaining([`用户管理：冻结 ${auditor}`, `用户管理：解冻 ${auditor}`, `定时任务：启动 ${job}`, `访客列表：冻结 ${visitor}`, '角色管理：保存 log_probe 的 0 项权限']));
    const ja = await read('ja-JP');
    expect(ja).toEqual(expect.arrayContaining([`ユーザー管理：${auditor} を凍結`, `定期ジョブ：${job} を開始`, `来訪者一覧：${visitor} を凍結`, 'ロール管理：log_probe の権限 0 件を保存']));
    expect([...zh, ...ja].filter((text) => /\b(freeze|thaw|quartzJob|role|visitor|user):/.test(text))).toEqual([]);
  });
});
