import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TENANT_HEADER,
  ApiPath,
  DepartRolePath,
  LANGUAGES,
  crudPath,
  dataRuleEntity,
  departEntity,
  departRoleEntity,
  entityLabel,
  entityPermissionCodes,
  permissionCode,
  positionEntity,
  translate,
  type DataRuleChoices,
  type DepartRoleHolder,
  type DepartRoleUser,
  type Page,
  type PermissionResult,
  type PermissionTreeNode,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown> & { id: string };

function flatten(nodes: PermissionTreeNode[]): PermissionTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

describe.each(await testDialects())('group permissions and group roles on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), payload, headers: { lang } });
  const addGroup = async (token: string, departName: string) => {
    const id = (await call<{ id: string }>(token, 'POST', crudPath(departEntity, 'add'), { departName })).envelope.result.id;
    const row = (await call<Row>(token, 'GET', `${crudPath(departEntity, 'queryById')}?id=${id}`)).envelope.result;
    return { id, orgCode: String(row.orgCode) };
  };
  const addRole = (payload: Record<string, unknown>, lang = 'en-US', token = admin) => call<{ id: string }>(token, 'POST', crudPath(departRoleEntity, 'add'), payload, lang);
  const idsOf = async (...codes: string[]) => {
    const rows = await app.db.selectFrom('sys_permission').select(['id', 'perms', 'url']).execute();
    return codes.map((code) => rows.find((r) => r.perms === code || r.url === code)!.id);
  };
  let sales: { id: string; orgCode: string };
  let plant: { id: string; orgCode: string };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    sales = await addGroup(admin, 'Sales');
    plant = await addGroup(admin, 'Plant');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('checks name 2-30, code at most 126 without Chinese and unique within its group, description at most 126', async () => {
    for (const lang of LANGUAGES) {
      const field = (name: string) => entityLabel(lang, `departRole.field.${name}`);
      expect((await addRole({ departId: sales.id, roleName: 'A', roleCode: 'a' }, lang)).envelope.message).toBe(translate(lang, 'validation.tooShort', { field: field('roleName'), min: '2' }));
      expect((await addRole({ departId: sales.id, roleName: 'A'.repeat(31), roleCode: 'a' }, lang)).envelope.message).toBe(translate(lang, 'validation.tooLong', { field: field('roleName'), max: '30' }));
      expect((await addRole({ departId: sales.id, roleName: 'Cashiers', roleCode: '收银' }, lang)).envelope.message).toBe(translate(lang, 'validation.noChinese', { field: field('roleCode') }));
      expect((await addRole({ departId: sales.id, roleName: 'Cashiers', roleCode: 'c'.repeat(127) }, lang)).envelope.message).toBe(translate(lang, 'validation.tooLong', { field: field('roleCode'), max: '126' }));
      expect((await addRole({ departId: sales.id, roleName: 'Cashiers', roleCode: 'c', description: 'd'.repeat(127) }, lang)).statusCode).toBe(400);
      expect((await addRole({ departId: 'nowhere', roleName: 'Cashiers', roleCode: 'c' }, lang)).envelope.message).toBe(translate(lang, 'validation.referenceMissing', { field: field('departId') }));
    }
    const cashier = await addRole({ departId: sales.id, roleName: 'Cashiers', roleCode: 'cashier', description: 'd'.repeat(126) });
    expect(cashier.envelope.success).toBe(true);
    expect((await addRole({ departId: sales.id, roleName: 'Long code', roleCode: 'c'.repeat(126) })).envelope.success).toBe(true);
    for (const lang of LANGUAGES) {
      const duplicate = await addRole({ departId: sales.id, roleName: 'Cashiers 2', roleCode: 'cashier' }, lang);
      expect(duplicate.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'duplicate.departRoleCode') });
    }
    // the same code in another group is another role
    expect((await addRole({ departId: plant.id, roleName: 'Cashiers', roleCode: 'cashier' })).envelope.success).toBe(true);
    const bySales = (await call<Page<Row>>(admin, 'GET', `${crudPath(departRoleEntity, 'list')}?departId=${sales.id}`)).envelope.result.records;
    expect(bySales.map((r) => r.roleCode).sort()).toEqual(['c'.repeat(126), 'cashier'].sort());
    // the origin console's spelling of the filter
    const byDeptId = (await call<Page<Row>>(admin, 'GET', `${crudPath(departRoleEntity, 'list')}?deptId=${plant.id}`)).envelope.result.records;
    expect(byDeptId.map((r) => [r.roleCode, r.departId])).toEqual([['cashier', plant.id]]);
    // a role stays in its group
    await call(admin, 'PUT', crudPath(departRoleEntity, 'edit'), { id: cashier.envelope.result.id, departId: plant.id, roleName: 'Tellers' });
    expect((await call<Row>(admin, 'GET', `${crudPath(departRoleEntity, 'queryById')}?id=${cashier.envelope.result.id}`)).envelope.result).toMatchObject({ departId: sales.id, roleName: 'Tellers' });
  });

  it("saves a group's permissions and offers its roles only those", async () => {
    const [system, position, positionList, positionAdd, userList] = await idsOf('/system', '/system/position', 'system:position:list', 'system:position:add', 'system:user:list');
    const saved = await call(admin, 'POST', DepartRolePath.saveDepartPermission, { departId: sales.id, permissionIds: [system, position, positionList, positionAdd].join(','), lastpermissionIds: '' }, 'ja-JP');
    expect(saved.envelope).toMatchObject({ success: true, message: translate('ja-JP', 'depart.permissionsSaved') });
    expect((await call<string[]>(admin, 'GET', `${DepartRolePath.queryDepartPermission}?departId=${sales.id}`)).envelope.result.sort()).toEqual([system, position, positionList, positionAdd].sort());
    expect((await call<string[]>(admin, 'GET', `${DepartRolePath.queryDepartPermission}?departId=${plant.id}`)).envelope.result).toEqual([]);

    const tree = (await call<{ treeList: PermissionTreeNode[]; ids: string[] }>(admin, 'GET', `${DepartRolePath.queryTreeListForDeptRole}?departId=${sales.id}`)).envelope.result;
    expect(tree.ids.sort()).toEqual([system, position, positionList, positionAdd].sort());
    expect(tree.treeList.map((n) => n.title)).toEqual(['menu.system']);
    expect(flatten(tree.treeList).map((n) => n.key).sort()).toEqual(tree.ids);
    expect(tree.treeList[0]!.children![0]!.children!.map((n) => n.perms)).toEqual(['system:position:list', 'system:position:add']);

    const role = (await call<Page<Row>>(admin, 'GET', `${crudPath(departRoleEntity, 'list')}?departId=${sales.id}&roleCode=cashier`)).envelope.result.records[0]!;
    for (const lang of LANGUAGES) {
      const outside = await call(admin, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: role.id, permissionIds: `${positionList},${userList}` }, lang);
      expect(outside.statusCode).toBe(400);
      expect(outside.envelope).toMatchObject({ success: false, message: translate(lang, 'departRole.permissionOutsideGroup') });
    }
    const inside = await call(admin, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: role.id, permissionIds: [system, position, positionList].join(','), lastpermissionIds: '' });
    expect(inside.envelope).toMatchObject({ success: true, message: translate('en-US', 'role.permissionsSaved') });
    expect((await call<string[]>(admin, 'GET', `${DepartRolePath.queryDeptRolePermission}?roleId=${role.id}`)).envelope.result.sort()).toEqual([system, position, positionList].sort());

    // Two administrators with the same drawer open: each save applies its own edit to what is stored by then.
    const loadedRole = [system, position, positionList].join(',');
    await call(admin, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: role.id, permissionIds: `${loadedRole},${positionAdd}`, lastpermissionIds: loadedRole });
    await call(admin, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: role.id, permissionIds: [system, position].join(','), lastpermissionIds: loadedRole });
    expect((await call<string[]>(admin, 'GET', `${DepartRolePath.queryDeptRolePermission}?roleId=${role.id}`)).envelope.result.sort()).toEqual([system, position, positionAdd].sort());
    const loadedGroup = [system, position, positionList, positionAdd].join(',');
    await call(admin, 'POST', DepartRolePath.saveDepartPermission, { departId: sales.id, permissionIds: `${loadedGroup},${userList}`, lastpermissionIds: loadedGroup });
    await call(admin, 'POST', DepartRolePath.saveDepartPermission, { departId: sales.id, permissionIds: [system, position, positionList].join(','), lastpermissionIds: loadedGroup });
    expect((await call<string[]>(admin, 'GET', `${DepartRolePath.queryDepartPermission}?departId=${sales.id}`)).envelope.result.sort()).toEqual([system, position, positionList, userList].sort());
    // the role lost what its group lost
    expect((await call<string[]>(admin, 'GET', `${DepartRolePath.queryDeptRolePermission}?roleId=${role.id}`)).envelope.result.sort()).toEqual([system, position].sort());
    await call(admin, 'POST', DepartRolePath.saveDepartPermission, { departId: sales.id, permissionIds: loadedGroup });
    await call(admin, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: role.id, permissionIds: loadedRole });
  });

  it('gives group roles only to members of the group', async () => {
    await createTestUser(app, 'ann', { orgCodes: [sales.orgCode, plant.orgCode] });
    await createTestUser(app, 'otto', { orgCodes: [plant.orgCode] });
    const userId = async (username: string) => (await app.db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const [ann, otto] = [await userId('ann'), await userId('otto')];
    const role = (await call<Page<Row>>(admin, 'GET', `${crudPath(departRoleEntity, 'list')}?departId=${sales.id}&roleCode=cashier`)).envelope.result.records[0]!;
    for (const lang of LANGUAGES) {
      const refused = await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: `${ann},${otto}`, newRoleId: role.id, oldRoleId: '' }, lang);
      expect(refused.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'departRole.userNotMember') });
    }
    const given = await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: ann, newRoleId: role.id, oldRoleId: '' });
    expect(given.envelope).toMatchObject({ success: true, message: translate('en-US', 'departRole.usersSaved') });
    // given twice it is held once
    expect((await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: ann, newRoleId: role.id })).envelope.success).toBe(true);
    const held = (await call<DepartRoleUser[]>(admin, 'GET', `${DepartRolePath.getDeptRoleByUserId}?userId=${ann}&departId=${sales.id}`)).envelope.result;
    expect(held.map((h) => [h.userId, h.droleId])).toEqual([[ann, role.id]]);
    expect((await call<DepartRoleUser[]>(admin, 'GET', `${DepartRolePath.getDeptRoleByUserId}?userId=${ann}&departId=${plant.id}`)).envelope.result).toEqual([]);
    const holders = (await call<DepartRoleHolder[]>(admin, 'GET', `${DepartRolePath.getDeptRoleUsers}?roleId=${role.id}`)).envelope.result;
    expect(holders.map((h) => h.username)).toEqual(['ann']);
    // taking a role back: it is in oldRoleId and not in newRoleId
    const other = (await addRole({ departId: sales.id, roleName: 'Auditors', roleCode: 'auditor' })).envelope.result.id;
    await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: ann, newRoleId: `${role.id},${other}`, oldRoleId: role.id });
    await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: ann, newRoleId: role.id, oldRoleId: `${role.id},${other}` });
    expect((await call<DepartRoleUser[]>(admin, 'GET', `${DepartRolePath.getDeptRoleByUserId}?userId=${ann}`)).envelope.result.map((h) => h.droleId)).toEqual([role.id]);
  });

  it('lets a group role give a button only in the current group, and only while the group holds it', async () => {
    const token = await login(app, 'ann', USER_PASSWORD);
    const switchTo = async (orgCode: string) => expect((await call(token, 'POST', ApiPath.selectDepart, { orgCode })).envelope.success).toBe(true);
    const buttons = async () => (await call<PermissionResult>(token, 'GET', ApiPath.userPermission)).envelope.result;
    const positions = async () => (await call(token, 'GET', crudPath({ basePath: '/sys/position' }, 'list'))).envelope.code;

    await switchTo(sales.orgCode);
    const inSales = await buttons();
    expect(inSales.auth.map((a) => a.action)).toEqual(['system:position:list']);
    expect(JSON.stringify(inSales.menu)).toContain('/system/position');
    expect(await positions()).toBe(200);

    await switchTo(plant.orgCode);
    expect((await buttons()).auth).toEqual([]);
    expect(await positions()).toBe(510);

    await switchTo(sales.orgCode);
    expect(await positions()).toBe(200);
    // the group loses the list button: its role loses it too, and the member at once
    const [system, position, positionAdd] = await idsOf('/system', '/system/position', 'system:position:add');
    await call(admin, 'POST', DepartRolePath.saveDepartPermission, { departId: sales.id, permissionIds: [system, position, positionAdd].join(',') });
    expect(await positions()).toBe(510);
    expect((await buttons()).auth).toEqual([]);
    const role = (await call<Page<Row>>(admin, 'GET', `${crudPath(departRoleEntity, 'list')}?departId=${sales.id}&roleCode=cashier`)).envelope.result.records[0]!;
    expect((await call<string[]>(admin, 'GET', `${DepartRolePath.queryDeptRolePermission}?roleId=${role.id}`)).envelope.result.sort()).toEqual([system, position].sort());
  });

  it("restricts a group role's holders by its data rules, chosen from the group's, in that group only", async () => {
    const [system, position, positionList, positionAdd] = await idsOf('/system', '/system/position', 'system:position:list', 'system:position:add');
    const rules = await Promise.all(
      [
        { ruleName: 'Own posts', ruleColumn: 'createBy', ruleConditions: 'eq', ruleValue: '#{sys_user_code}' },
        { ruleName: 'Rank one', ruleColumn: 'postRank', ruleConditions: 'eq', ruleValue: '1' },
      ].map(async (rule) => (await call<{ id: string }>(admin, 'POST', crudPath(dataRuleEntity, 'add'), { permissionId: position, ...rule })).envelope.result.id),
    );
    const [own, rankOne] = rules as [string, string];
    const depot = await addGroup(admin, 'Depot');
    const other = await addGroup(admin, 'Yard');
    const menus = [system, position, positionList, positionAdd].join(',');
    for (const group of [depot, other]) await call(admin, 'POST', DepartRolePath.saveDepartPermission, { departId: group.id, permissionIds: menus });
    const clerk = (await addRole({ departId: depot.id, roleName: 'Depot clerks', roleCode: 'depot_clerk' })).envelope.result.id;
    const yardClerk = (await addRole({ departId: other.id, roleName: 'Yard clerks', roleCode: 'yard_clerk' })).envelope.result.id;
    for (const roleId of [clerk, yardClerk]) await call(admin, 'POST', DepartRolePath.saveDeptRolePermission, { roleId, permissionIds: menus });

    // a group is given rules only of menus it holds; its roles only rules it was given
    const plantRule = await call(admin, 'POST', DepartRolePath.saveDepartDataRule, { departId: plant.id, permissionId: position, dataRuleIds: own }, 'zh-CN');
    expect(plantRule.envelope).toMatchObject({ success: false, message: translate('zh-CN', 'depart.ruleMenuNotHeld') });
    for (const lang of LANGUAGES) {
      const early = await call(admin, 'POST', DepartRolePath.saveDeptRoleDataRule, { roleId: clerk, permissionId: position, dataRuleIds: own }, lang);
      expect(early.statusCode).toBe(400);
      expect(early.envelope.message).toBe(translate(lang, 'departRole.ruleOutsideGroup'));
    }
    const given = await call(admin, 'POST', DepartRolePath.saveDepartDataRule, { departId: depot.id, permissionId: position, dataRuleIds: `${own},${rankOne}` });
    expect(given.envelope).toMatchObject({ success: true, message: translate('en-US', 'dataRule.saved') });
    const offered = (await call<DataRuleChoices>(admin, 'GET', `${DepartRolePath.queryDeptRoleDataRule}?roleId=${clerk}&permissionId=${position}`)).envelope.result;
    expect(offered.rules.map((r) => r.ruleName).sort()).toEqual(['Own posts', 'Rank one']);
    expect(offered.granted).toEqual([]);
    expect((await call(admin, 'POST', DepartRolePath.saveDeptRoleDataRule, { roleId: clerk, permissionId: position, dataRuleIds: own })).envelope.success).toBe(true);
    expect((await call<DataRuleChoices>(admin, 'GET', `${DepartRolePath.queryDeptRoleDataRule}?roleId=${clerk}&permissionId=${position}`)).envelope.result.granted).toEqual([own]);
    expect((await call<DataRuleChoices>(admin, 'GET', `${DepartRolePath.queryDepartDataRule}?departId=${depot.id}&permissionId=${position}`)).envelope.result.granted.sort()).toEqual([own, rankOne].sort());

    const dora = await createTestUser(app, 'dora', { orgCodes: [depot.orgCode, other.orgCode] });
    await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: dora, newRoleId: `${clerk},${yardClerk}` });
    const token = await login(app, 'dora', USER_PASSWORD);
    const switchTo = async (orgCode: string) => expect((await call(token, 'POST', ApiPath.selectDepart, { orgCode })).envelope.success).toBe(true);
    await call(admin, 'POST', crudPath(positionEntity, 'add'), { code: 'P-ADMIN', name: 'Admin post', postRank: '1' });
    await switchTo(depot.orgCode);
    expect((await call(token, 'POST', crudPath(positionEntity, 'add'), { code: 'P-DORA', name: 'Dora post', postRank: '2' })).envelope.success).toBe(true);
    const codes = async () => (await call<Page<Row>>(token, 'GET', `${crudPath(positionEntity, 'list')}?pageSize=100`)).envelope.result.records.map((r) => r.code).sort();
    // in the depot only her own posts
    expect(await codes()).toEqual(['P-DORA']);
    // in the yard her role there holds no rule: every post
    await switchTo(other.orgCode);
    expect(await codes()).toEqual(expect.arrayContaining(['P-ADMIN', 'P-DORA']));
    // the group losing the rule takes it from its roles
    await switchTo(depot.orgCode);
    await call(admin, 'POST', DepartRolePath.saveDepartDataRule, { departId: depot.id, permissionId: position, dataRuleIds: rankOne });
    expect((await call<DataRuleChoices>(admin, 'GET', `${DepartRolePath.queryDeptRoleDataRule}?roleId=${clerk}&permissionId=${position}`)).envelope.result.granted).toEqual([]);
    expect(await codes()).toEqual(expect.arrayContaining(['P-ADMIN', 'P-DORA']));
  });

  it('removes the links of deleted group roles and of deleted groups', async () => {
    const temp = await addGroup(admin, 'Temporary');
    const [system, position, positionList] = await idsOf('/system', '/system/position', 'system:position:list');
    await call(admin, 'POST', DepartRolePath.saveDepartPermission, { departId: temp.id, permissionIds: [system, position, positionList].join(',') });
    await createTestUser(app, 'tess', { orgCodes: [temp.orgCode] });
    const tess = (await app.db.selectFrom('sys_user').select('id').where('username', '=', 'tess').executeTakeFirstOrThrow()).id;
    const makeRole = async (roleCode: string) => {
      const id = (await addRole({ departId: temp.id, roleName: roleCode, roleCode })).envelope.result.id;
      await call(admin, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: id, permissionIds: positionList });
      await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: tess, newRoleId: id });
      return id;
    };
    const links = async (roleIds: string[]) => ({
      permissions: (await app.db.selectFrom('sys_depart_role_permission').select('id').where('role_id', 'in', roleIds).execute()).length,
      users: (await app.db.selectFrom('sys_depart_role_user').select('id').where('drole_id', 'in', roleIds).execute()).length,
    });
    const first = await makeRole('first');
    const second = await makeRole('second');
    expect(await links([first, second])).toEqual({ permissions: 2, users: 2 });
    expect((await call(admin, 'DELETE', `${crudPath(departRoleEntity, 'delete')}?id=${first}`)).envelope.success).toBe(true);
    expect(await links([first])).toEqual({ permissions: 0, users: 0 });
    expect(await links([second])).toEqual({ permissions: 1, users: 1 });

    // a member leaving the group leaves its roles
    await call(admin, 'DELETE', `/sys/user/deleteUserInDepartBatch?depId=${temp.id}&userIds=${tess}`);
    expect(await links([second])).toEqual({ permissions: 1, users: 0 });
    await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: tess, newRoleId: second });
    expect((await call(admin, 'POST', '/sys/user/editSysDepartWithUser', { depId: temp.id, userIdList: tess })).envelope.success).toBe(true);
    await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: tess, newRoleId: second });
    expect(await links([second])).toEqual({ permissions: 1, users: 1 });

    expect((await call(admin, 'DELETE', `${crudPath(departEntity, 'delete')}?id=${temp.id}`)).envelope.success).toBe(true);
    expect(await links([second])).toEqual({ permissions: 0, users: 0 });
    expect(await app.db.selectFrom('sys_depart_role').select('id').where('depart_id', '=', temp.id).execute()).toEqual([]);
    expect(await app.db.selectFrom('sys_depart_permission').select('id').where('depart_id', '=', temp.id).execute()).toEqual([]);
  });

  it("keeps each tenant's group roles to that tenant", async () => {
    const tenant = async (code: string) => (await call<{ id: string }>(admin, 'POST', '/sys/tenant/add', { name: `Tenant ${code}`, code, status: 1 })).envelope.result.id;
    const tenants = { A: await tenant('dra'), B: await tenant('drb') };
    await createRoleWith(app, 'group_tenant_admin', [...entityPermissionCodes(departEntity), ...entityPermissionCodes(departRoleEntity), 'system:position:list']);
    const tokens: Record<string, string> = {};
    const roleIds: Record<string, string> = {};
    const groupIds: Record<string, string> = {};
    for (const [name, tenantId] of Object.entries(tenants)) {
      await createTestUser(app, `gadmin${name}`, { roles: ['group_tenant_admin'], tenantId });
      tokens[name] = await login(app, `gadmin${name}`, USER_PASSWORD);
      groupIds[name] = (await call<{ id: string }>(tokens[name]!, 'POST', crudPath(departEntity, 'add'), { departName: `Group ${name}` })).envelope.result.id;
      const added = await addRole({ departId: groupIds[name], roleName: `Role ${name}`, roleCode: 'same' }, 'en-US', tokens[name]);
      expect(added.envelope.success).toBe(true);
      roleIds[name] = added.envelope.result.id;
    }
    for (const [name, token] of Object.entries(tokens)) {
      const other = name === 'A' ? 'B' : 'A';
      const listed = (await call<Page<Row>>(token, 'GET', `${crudPath(departRoleEntity, 'list')}?pageSize=100`)).envelope.result.records;
      expect(listed.map((r) => r.roleName)).toEqual([`Role ${name}`]);
      const foreign = roleIds[other]!;
      expect((await call(token, 'GET', `${crudPath(departRoleEntity, 'queryById')}?id=${foreign}`)).statusCode).toBe(404);
      expect((await call(token, 'PUT', crudPath(departRoleEntity, 'edit'), { id: foreign, roleName: 'Taken' })).statusCode).toBe(404);
      expect((await call(token, 'DELETE', `${crudPath(departRoleEntity, 'delete')}?id=${foreign}`)).statusCode).toBe(404);
      expect((await call(token, 'GET', `${DepartRolePath.queryDeptRolePermission}?roleId=${foreign}`)).statusCode).toBe(404);
      expect((await call(token, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: foreign, permissionIds: '' })).statusCode).toBe(404);
      expect((await call(token, 'GET', `${DepartRolePath.queryDepartPermission}?departId=${groupIds[other]}`)).statusCode).toBe(404);
      expect((await call(token, 'GET', `${DepartRolePath.queryTreeListForDeptRole}?departId=${groupIds[other]}`)).statusCode).toBe(404);
      // a role cannot be made in the other tenant's group
      expect((await addRole({ departId: groupIds[other], roleName: 'Intruders', roleCode: 'intruder' }, 'en-US', token)).envelope.message).toBe(translate('en-US', 'validation.referenceMissing', { field: entityLabel('en-US', 'departRole.field.departId') }));
      const me = (await app.db.selectFrom('sys_user').select('id').where('username', '=', `gadmin${name}`).executeTakeFirstOrThrow()).id;
      expect((await call(token, 'POST', DepartRolePath.deptRoleUserAdd, { userId: me, newRoleId: foreign })).statusCode).toBe(404);
    }
    // the system administrator works in tenant A when he names it
    const inA = { lang: 'en-US', [TENANT_HEADER]: tenants.A };
    expect((await call<Row>(admin, 'GET', `${crudPath(departRoleEntity, 'queryById')}?id=${roleIds.A}`)).statusCode).toBe(404);
    expect((await injectAs<Row>(app, admin, { method: 'GET', url: api(app, `${crudPath(departRoleEntity, 'queryById')}?id=${roleIds.A}`), headers: inA })).envelope.result.roleName).toBe('Role A');
    // the system administrator makes a role in tenant A's group: it is tenant A's
    const byAdmin = await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(departRoleEntity, 'add')), payload: { departId: groupIds.A, roleName: 'By the administrator', roleCode: 'by_admin' }, headers: inA });
    expect(byAdmin.envelope.success).toBe(true);
    const seenByA = (await call<Page<Row>>(tokens.A!, 'GET', `${crudPath(departRoleEntity, 'list')}?pageSize=100`)).envelope.result.records;
    expect(seenByA.map((r) => r.roleCode).sort()).toEqual(['by_admin', 'same']);
  });

  it('gives a holder of the list permission only 510 for every change', async () => {
    await createRoleWith(app, 'group_role_viewer', [permissionCode(departRoleEntity, 'list')]);
    await createTestUser(app, 'grviewer', { roles: ['group_role_viewer'] });
    const viewer = await login(app, 'grviewer', USER_PASSWORD);
    const role = (await call<Page<Row>>(admin, 'GET', `${crudPath(departRoleEntity, 'list')}?departId=${sales.id}&roleCode=cashier`)).envelope.result.records[0]!;
    expect((await call(viewer, 'GET', `${crudPath(departRoleEntity, 'list')}?departId=${sales.id}`)).statusCode).toBe(200);
    const denied = [
      call(viewer, 'POST', crudPath(departRoleEntity, 'add'), { departId: sales.id, roleName: 'Xx', roleCode: 'x' }),
      call(viewer, 'PUT', crudPath(departRoleEntity, 'edit'), { id: role.id, roleName: 'Xx' }),
      call(viewer, 'DELETE', `${crudPath(departRoleEntity, 'delete')}?id=${role.id}`),
      call(viewer, 'DELETE', `${crudPath(departRoleEntity, 'deleteBatch')}?ids=${role.id}`),
      call(viewer, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: role.id, permissionIds: '' }),
      call(viewer, 'POST', DepartRolePath.deptRoleUserAdd, { userId: role.id, newRoleId: role.id }),
      call(viewer, 'POST', DepartRolePath.saveDepartPermission, { departId: sales.id, permissionIds: '' }),
    ];
    for (const answer of await Promise.all(denied)) {
      expect(answer.statusCode).toBe(403);
      expect(answer.envelope).toMatchObject({ success: false, code: 510 });
    }
  });
});
