import { afterAll, describe, expect, it } from 'vitest';
import { isStrongPassword } from '@isps/contract';
import { buildTestApp, createNamespace, createTestUser, testDialects, tryLogin, type TestNamespace } from '../../test/harness.ts';

const dialects = await testDialects();

describe.each(dialects)('first start on %s', (dialect) => {
  let namespace: TestNamespace;
  afterAll(async () => {
    await namespace?.drop();
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
    }
  });
});
