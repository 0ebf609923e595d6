/**
 * api-menu: GET /sys/permission/getUserPermissionByToken (after every sign-in and page reload) for the
 * administrator, who holds every menu and button: time per answer through the HTTP layer and the size of its body.
 * Baseline: /api/health through the same layer. Target: <= 20 ms per answer.
 */
import { performance } from 'node:perf_hooks';
import { finish, report, startConsole } from './support.ts';

const ROUNDS = 200;
const bench = await startConsole('sqlite');
try {
  const { app, token } = bench;
  const timePerCall = async (run: () => Promise<unknown>) => {
    for (let i = 0; i < 20; i++) await run();
    const start = performance.now();
    for (let i = 0; i < ROUNDS; i++) await run();
    return (performance.now() - start) / ROUNDS;
  };
  const menu = () => app.inject({ method: 'GET', url: '/api/sys/permission/getUserPermissionByToken', headers: { 'X-Access-Token': token } });
  const size = Buffer.byteLength((await menu()).body);
  const ours = await timePerCall(menu);
  const health = await timePerCall(() => app.inject({ method: 'GET', url: '/api/health' }));
  report('api-menu getUserPermissionByToken', `${ours.toFixed(2)}ms(${(size / 1024).toFixed(0)}KB)`, `${health.toFixed(2)}ms`, ours / health, '<=20ms', ours <= 20);
} finally {
  await bench.close();
}
finish();
