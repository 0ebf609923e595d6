import { afterAll, describe, expect, it } from 'vitest';
import { ApiPath, isStrongPassword, type PermissionResult } from '@isps/contract';
import { adminToken, api, buildTestApp, createNamespace, createTestUser, injectAs, testDialects, tryLogin, type TestNamespace } from '../../test/harness.ts';

const dialects = await testDialects();

describe.each(dialects)('first start on %s', (dialect) => {
  let namespace: TestNamespace;
  afterAll(async () => {
    await namespace?.drop().catch(() => undefined);
  });

  it('seeds once, keeps data on the next start and never shows the password again', async () => {
    namespace = await createNamespace(dialect);
    const first = await buildTestApp(dialect, { namespace, config: { adminPassword: null } });
    expect(first.app.seedOutcome.seeded).toBe(true);
    const password = first.app.seedOutcome.generatedAdminPassword;
    expect(password && isStrongPassword(password)).toBe(true);
    const login = await tryLogin(first.app, 'admin', password as string);
    expect(login.envelope.result.userInfo).toMatchObject({ mustChangePassword: true, orgCode: 'A01' });
    await createTestUser(first.app, 'kept');
    const counts = async (app: typeof first.app) => ({
      permissions: Number((await app.db.selectFrom('sys_permission').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
      users: Number((await app.db.selectFrom('sys_user').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
      dicts: Number((await app.db.selectFrom('sys_dict').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    });
    const before = await counts(first.app);
    await first.close();

    const second = await buildTestApp(dialect, { namespace, config: { adminPassword: null } });
    try {
      expect(second.app.seedOutcome).toEqual({ seeded: false, generatedAdminPassword: null });
      expect(await counts(second.app)).toEqual(before);
      expect(before.users).toBe(2);
      expect(before.dicts).toBeGreaterThanOrEqual(17);
      expect((await tryLogin(second.app, 'admin', password as string)).envelope.success).toBe(true);
      const roles = await second.app.db.selectFrom('sys_role').select(['role_code', 'role_type']).orderBy('role_code').execute();
      expect(roles.map((r) => [r.role_code, Number(r.role_type)])).toEqual([
        ['admin', 1],
        ['device_admin', 2],
        ['user', 1],
      ]);
    } finally {
      await second.close();
      await namespace.drop();
    }
  });

  it('brings an installed console up to the menus of this release, keeping what administrators changed', async () => {
    const ns = await createNamespace(dialect);
    try {
      const first = await buildTestApp(dialect, { namespace: ns });
      const db = first.app.db;
      // an older release: the user screen not built yet, its freeze button missing; an administrator hid Roles
      await db.updateTable('sys_permission').set({ hidden: 1, is_route: 0 }).where('url', '=', '/system/user').execute();
      await db.deleteFrom('sys_permission').where('perms', '=', 'system:user:frozen').execute();
      await db.updateTable('sys_permission').set({ hidden: 1, update_by: 'admin' }).where('url', '=', '/system/role').execute();
      await first.close();

      const second = await buildTestApp(dialect, { namespace: ns });
      let secondOpen = true;
      try {
        const row = (url: string) => second.app.db.selectFrom('sys_permission').selectAll().where('url', '=', url).executeTakeFirstOrThrow();
        expect(await row('/system/user')).toMatchObject({ hidden: 0, is_route: 1 });
        expect(await row('/system/role')).toMatchObject({ hidden: 1 });
        const frozen = await second.app.db.selectFrom('sys_permission').selectAll().where('perms', '=', 'system:user:frozen').execute();
        expect(frozen).toHaveLength(1);
        expect(frozen[0]?.parent_id).toBe((await row('/system/user')).id);
        const admin = await adminToken(second.app);
        const result = await injectAs<PermissionResult>(second.app, admin, { method: 'GET', url: api(second.app, ApiPath.userPermission) });
        expect(result.envelope.result.auth.map((a) => a.action)).toContain('system:user:frozen');
        // a third start adds nothing more
        const again = await second.app.db.selectFrom('sys_permission').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        await second.close();
        secondOpen = false;
        const third = await buildTestApp(dialect, { namespace: ns });
        const after = await third.app.db.selectFrom('sys_permission').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        expect(Number(after.n)).toBe(Number(again.n));
        await third.close();
      } finally {
        if (secondOpen) await second.close();
      }
    } finally {
      await ns.drop();
    }
  });
});
