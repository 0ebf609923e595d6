/**
 * Cost of building a user's menu and button tree (getUserPermissionByToken, called after every login and page
 * reload) against the cheapest authenticated-free call (/api/health) through the same HTTP layer on SQLite.
 * Prints the ratio; a growing ratio means the permission query or tree build got slower.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

const ROUNDS = 400;
const dataDir = mkdtempSync(join(tmpdir(), 'isps-bench-'));
const app = await buildApp(
  loadConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'Bench#Pass1', LOGIN_CAPTCHA: 'off', LOG_LEVEL: 'silent', MQTT_PORT: '0' }),
);

async function loginToken(password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/sys/login', payload: { username: 'admin', password } });
  return (res.json() as { result: { token: string } }).result.token;
}

const first = await loginToken('Bench#Pass1');
await app.inject({
  method: 'POST',
  url: '/api/sys/user/updatePassword',
  headers: { 'X-Access-Token': first },
  payload: { username: 'admin', oldpassword: 'Bench#Pass1', password: 'Bench#Pass2', confirmpassword: 'Bench#Pass2' },
});
const token = await loginToken('Bench#Pass2');

async function timePerCall(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await run();
  const start = performance.now();
  for (let i = 0; i < ROUNDS; i++) await run();
  return (performance.now() - start) / ROUNDS;
}

const baseline = await timePerCall(() => app.inject({ method: 'GET', url: '/api/health' }));
const tree = await timePerCall(() =>
  app.inject({ method: 'GET', url: '/api/sys/permission/getUserPermissionByToken', headers: { 'X-Access-Token': token } }),
);
console.log(`permission tree: ${tree.toFixed(3)} ms per call, health baseline ${baseline.toFixed(3)} ms, ratio ${(tree / baseline).toFixed(2)}`);
await app.close();
rmSync(dataDir, { recursive: true, force: true });
