import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RolePath, crudPath, positionEntity, roleEntity, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith } from '../test/crud-helpers.ts';
import {
  ADMIN_PASSWORD,
  USER_PASSWORD,
  adminToken,
  api,
  buildTestApp,
  buildInstancePair,
  createTestUser,
  injectAs,
  login,
  redisReachable,
  testDialects,
  type TestApp,
  type InstancePair,
} from '../test/harness.ts';

const positions = crudPath(positionEntity, 'list');
const listPositions = (app: FastifyInstance, token: string) => injectAs(app, token, { method: 'GET', url: api(app, positions) });

async function roleIdOf(app: FastifyInstance, admin: string, roleCode: string): Promise<string> {
  const page = await injectAs<Page<{ id: string }>>(app, admin, { method: 'GET', url: api(app, `${crudPath(roleEntity, 'list')}?roleCode=${roleCode}`) });
  return page.envelope.result.records[0]!.id;
}

describe.each(await testDialects())('cached sessions and permission sets on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a warm request loads no session or permission set, and any committed change to roles or tokens is seen on the next one', async () => {
    await createRoleWith(app, 'cached_reader', ['system:position:list']);
    await createTestUser(app, 'cached1', { roles: ['cached_reader'] });
    const token = await login(app, 'cached1', USER_PASSWORD);
    expect((await listPositions(app, token)).statusCode).toBe(200);

    // warm: the access hook loads neither the session nor the permission set
    let loads = 0;
    const count = <T>(memo: { get(key: string, load: () => Promise<T>): Promise<T> }) => {
      const get = memo.get.bind(memo);
      memo.get = (key, load) => get(key, () => ((loads += 1), load()));
    };
    count(app.accessCache.sessions);
    count(app.accessCache.profiles);
    expect((await listPositions(app, token)).statusCode).toBe(200);
    expect(loads).toBe(0);

    // the role loses the permission through the API: refused on the very next call
    const roleId = await roleIdOf(app, admin, 'cached_reader');
    await injectAs(app, admin, { method: 'POST', url: api(app, RolePath.saveRolePermission), payload: { roleId, permissionIds: '' } });
    expect((await listPositions(app, token)).envelope.code).toBe(510);
    expect(loads).toBeGreaterThan(0);

    // a change written by any code path inside a transaction counts at its commit
    await app.db.transaction().execute(async (trx) => {
      const ids = await trx.selectFrom('sys_permission').select('id').where('perms', '=', 'system:position:list').execute();
      for (const p of ids) await trx.insertInto('sys_role_permission').values({ id: `rp-${p.id}`.slice(0, 36), role_id: roleId, permission_id: p.id, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    });
    expect((await listPositions(app, token)).statusCode).toBe(200);

    // logout ends the session at once
    await injectAs(app, token, { method: 'POST', url: api(app, '/sys/logout') });
    expect((await listPositions(app, token)).statusCode).toBe(401);
  });
});

describe.skipIf(!(await redisReachable()))('two instances sharing Redis', () => {
  let pair: InstancePair;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    pair = await buildInstancePair();
    ({ a, b } = pair);
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('a role change or a logout on one instance holds at once on the other, whose cache was warm', async () => {
    const admin = await adminToken(a.app);
    await createRoleWith(a.app, 'shared_reader', ['system:position:list']);
    await createTestUser(a.app, 'shared1', { roles: ['shared_reader'] });
    const token = await login(a.app, 'shared1', USER_PASSWORD);
    expect((await listPositions(b.app, token)).statusCode).toBe(200);
    expect((await listPositions(b.app, token)).statusCode).toBe(200);

    const roleId = await roleIdOf(a.app, admin, 'shared_reader');
    const saved = await injectAs(a.app, admin, { method: 'POST', url: api(a.app, RolePath.saveRolePermission), payload: { roleId, permissionIds: '' } });
    expect(saved.envelope.success).toBe(true);
    expect((await listPositions(b.app, token)).envelope.code).toBe(510);

    const other = await login(a.app, 'admin', ADMIN_PASSWORD);
    expect((await listPositions(b.app, other)).statusCode).toBe(200);
    await injectAs(a.app, other, { method: 'POST', url: api(a.app, '/sys/logout') });
    expect((await listPositions(b.app, other)).statusCode).toBe(401);
  });
});
