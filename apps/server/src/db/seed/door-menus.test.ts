import { afterAll, describe, expect, it } from 'vitest';
import { ApiPath, type PermissionResult } from '@isps/contract';
import { adminToken, api, buildTestApp, createNamespace, injectAs, testDialects, type TestNamespace } from '../../test/harness.ts';

const dialects = await testDialects();
const doorScreens = ['/device/door', '/device/doorStatus', '/device/deviceSetting'];

describe.each(dialects)('door screens on an installed console on %s', (dialect) => {
  let ns: TestNamespace | undefined;
  afterAll(async () => {
    await ns?.drop().catch(() => undefined);
  });

  it('become visible and routed at the next start where they were seeded hidden, and reach the administrator’s menu', async () => {
    ns = await createNamespace(dialect);
    const first = await buildTestApp(dialect, { namespace: ns });
    // the release before: the three screens seeded hidden, without a route
    await first.app.db.updateTable('sys_permission').set({ hidden: 1, is_route: 0 }).where('url', 'in', doorScreens).execute();
    await first.close();

    const second = await buildTestApp(dialect, { namespace: ns });
    try {
      const rows = await second.app.db.selectFrom('sys_permission').select(['url', 'hidden', 'is_route']).where('url', 'in', doorScreens).orderBy('url').execute();
      expect(rows.map((r) => [r.url, Number(r.hidden), Number(r.is_route)])).toEqual([...doorScreens].sort().map((url) => [url, 0, 1]));
      const answer = await injectAs<PermissionResult>(second.app, await adminToken(second.app), { method: 'GET', url: api(second.app, ApiPath.userPermission) });
      const paths = JSON.stringify(answer.envelope.result.menu);
      for (const url of doorScreens) expect(paths).toContain(`"path":"${url}"`);
      expect(answer.envelope.result.auth.map((a) => a.action)).toEqual(expect.arrayContaining(['device:door:open', 'device:doorStatus:view', 'device:deviceSetting:add']));
    } finally {
      await second.close();
    }
  });
});
