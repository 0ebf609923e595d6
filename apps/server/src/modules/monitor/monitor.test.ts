import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiPath,
  MetricsPath,
  MonitorLimits,
  MonitorPath,
  type DiskInfo,
  type RedisInfoSection,
  type RedisTerminalAnswer,
  type RuntimeInfo,
  type ServerInfo,
  type TraceEntry,
  type WebServerInfo,
} from '@isps/contract';
import { adminToken, api, createTestUser, injectAs, login, redisReachable, testDialects, USER_PASSWORD, type TestApp, buildTestApp } from '../../test/harness.ts';
import { RoleCode } from '../../db/seed/index.ts';
import { parseTerminalLine } from './redis.ts';
import { tracedPath } from './trace.ts';

const SCRAPE_TOKEN = 'scrape-token-0123456789abcdef';
const SECRETS = { token: 'tok-SECRET-4f1a9c', cookie: 'ck-SECRET-77ab03', password: 'Pw-SECRET-991144', card: '4111111111111111' };

const MONITOR_ROUTES: Array<{ method: 'GET' | 'POST'; path: string; code: string }> = [
  { method: 'GET', path: MonitorPath.disk, code: 'monitor:disk:view' },
  { method: 'GET', path: MonitorPath.httpTrace, code: 'monitor:httpTrace:view' },
  { method: 'GET', path: MonitorPath.runtime, code: 'monitor:jvm:view' },
  { method: 'GET', path: MonitorPath.webServer, code: 'monitor:tomcat:view' },
  { method: 'GET', path: MonitorPath.server, code: 'monitor:server:view' },
  { method: 'GET', path: MonitorPath.redisInfo, code: 'monitor:redis:view' },
  { method: 'POST', path: MonitorPath.redisTerminal, code: 'monitor:redisTerminal:execute' },
];

describe('what the HTTP trace keeps of an address', () => {
  it('keeps route templates, query names, and values of plain names only', () => {
    expect(tracedPath('/api/sys/user/list?pageNo=2&pageSize=10', '/api/sys/user/list')).toBe('/api/sys/user/list?pageNo=2&pageSize=10');
    expect(tracedPath(`/api/x?token=${SECRETS.token}&password=a&cardNo=1&apiKey=k&q=${SECRETS.card}`, '/api/x')).toBe('/api/x?token=***&password=***&cardNo=***&apiKey=***&q=***');
    expect(tracedPath('/api/sys/common/static/ab12cd34ef.png', '/api/sys/common/static/*')).toBe('/api/sys/common/static/*');
    expect(tracedPath(`/api/nothing/${SECRETS.card}/x`, undefined)).toBe('/api/nothing/***/x');
  });
});

describe('the Redis terminal line', () => {
  it('splits quoted words, caps SCAN and refuses what is not on the allow-list', () => {
    expect(parseTerminalLine('  info   "server" ')).toEqual({ name: 'INFO', args: ['server'] });
    expect(parseTerminalLine('scan 0 match "isps:*" count 999999')).toEqual({ name: 'SCAN', args: ['0', 'MATCH', 'isps:*', 'COUNT', String(MonitorLimits.scanCountMax)] });
    for (const line of ['FLUSHALL', 'config get *', 'GET k', 'KEYS *', 'eval "return 1" 0', 'SHUTDOWN', 'SCRIPT FLUSH', 'debug sleep 1']) {
      expect(() => parseTerminalLine(line), line).toThrow('monitor.commandRefused');
    }
    expect(() => parseTerminalLine('TTL')).toThrow('monitor.commandUsage');
    expect(() => parseTerminalLine('PING "open')).toThrow('monitor.commandUsage');
    expect(() => parseTerminalLine('PING\nFLUSHALL')).toThrow('monitor.commandUsage');
    expect(() => parseTerminalLine(`PING ${'x'.repeat(MonitorLimits.terminalLineMax)}`)).toThrow('monitor.commandTooLong');
    expect(() => parseTerminalLine('   ')).toThrow('monitor.commandEmpty');
  });
});

describe.each(await testDialects())('monitoring without Redis on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let plainUser: string;
  let deviceAdmin: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { METRICS_TOKEN: SCRAPE_TOKEN } });
    admin = await adminToken(t.app);
    await createTestUser(t.app, 'mon-user', { roles: [RoleCode.user] });
    await createTestUser(t.app, 'mon-devadmin', { roles: [RoleCode.deviceAdmin] });
    plainUser = await login(t.app, 'mon-user', USER_PASSWORD);
    deviceAdmin = await login(t.app, 'mon-devadmin', USER_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = <T>(path: string, token = admin, lang = 'en-US') => injectAs<T>(t.app, token, { method: 'GET', url: api(t.app, path), headers: { lang } });

  it('lists the mounted disks with the data folder’s marked', async () => {
    const answer = await get<DiskInfo[]>(MonitorPath.disk);
    expect(answer.envelope.success).toBe(true);
    const disks = answer.envelope.result;
    expect(disks.length).toBeGreaterThan(0);
    expect(disks.filter((d) => d.dataDir)).toHaveLength(1);
    for (const disk of disks) {
      expect(disk.size).toBeGreaterThan(0);
      expect(disk.usedPercent).toBeGreaterThanOrEqual(0);
      expect(disk.usedPercent).toBeLessThanOrEqual(100);
      expect(['proc', 'sysfs', 'tmpfs', 'cgroup2']).not.toContain(disk.type);
    }
  });

  it('reports the runtime, the web server and the server', async () => {
    t.app.monitor.runtime.sample();
    const runtime = (await get<RuntimeInfo>(MonitorPath.runtime)).envelope.result;
    expect(runtime.nodeVersion).toBe(process.version);
    expect(runtime.current.heapUsed).toBeGreaterThan(0);
    expect(runtime.current.rss).toBeGreaterThan(0);
    expect(runtime.samples.length).toBeGreaterThan(0);
    expect(runtime.current.loopUtilization).toBeGreaterThanOrEqual(0);

    const web = (await get<WebServerInfo>(MonitorPath.webServer)).envelope.result;
    expect(web.totalRequests).toBeGreaterThan(0);
    expect(web.statusCounts['2xx']).toBeGreaterThan(0);
    expect(web.latencyMs.p99).toBeGreaterThanOrEqual(web.latencyMs.p50);
    expect(web).toMatchObject({ websocketSessions: 0, mqttDevices: 0, mqttLinked: false });

    const server = (await get<ServerInfo>(MonitorPath.server)).envelope.result;
    expect(server.cpu.count).toBeGreaterThan(0);
    expect(server.process.pid).toBe(process.pid);
    expect(server.database.engine).toBe({ sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MariaDB/MySQL' }[dialect]);
    expect(server.database.version).toMatch(/\d+\.\d+/);
    expect(server.broker).toMatchObject({ kind: 'none', url: null });
    expect(JSON.stringify(server)).not.toContain('argv');
  });

  it('says Redis is not configured, in the reader’s language, on both Redis screens', async () => {
    for (const [lang, text] of [['en-US', 'Redis is not configured'], ['zh-CN', '未配置 Redis'], ['ja-JP', 'Redis が設定されていません']] as const) {
      const info = await get(MonitorPath.redisInfo, admin, lang);
      expect(info.statusCode).toBe(200);
      expect(info.envelope).toMatchObject({ success: false, code: 500 });
      expect(info.envelope.message).toContain(text);
      const run = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, MonitorPath.redisTerminal), payload: { command: 'PING' }, headers: { lang } });
      expect(run.envelope).toMatchObject({ success: false, code: 500 });
      expect(run.envelope.message).toContain(text);
    }
  });

  it('refuses every monitoring route to the seeded user and device administrator roles', async () => {
    for (const token of [plainUser, deviceAdmin]) {
      for (const route of MONITOR_ROUTES) {
        const answer = await injectAs(t.app, token, { method: route.method, url: api(t.app, route.path), headers: { lang: 'en-US' }, ...(route.method === 'POST' ? { payload: { command: 'PING' } } : {}) });
        expect(answer.statusCode, route.path).toBe(403);
        expect(answer.envelope.message).toContain(route.code);
      }
      expect((await t.app.inject({ method: 'GET', url: MetricsPath, headers: { 'X-Access-Token': token } })).statusCode).toBe(403);
    }
  });

  it('serves /metrics to an administrator and to the scrape token only', async () => {
    const anonymous = await injectAs(t.app, null, { method: 'GET', url: MetricsPath, headers: { lang: 'en-US' } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.envelope).toMatchObject({ success: false, code: 401 });
    const wrong = await injectAs(t.app, null, { method: 'GET', url: MetricsPath, headers: { authorization: 'Bearer not-the-token-0123456789' } });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.envelope.success).toBe(false);
    const scraped = await t.app.inject({ method: 'GET', url: MetricsPath, headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.headers['content-type']).toContain('text/plain');
    for (const name of ['isps_http_requests_total', 'isps_http_request_duration_seconds_bucket', 'isps_nodejs_eventloop_lag_seconds', 'isps_websocket_sessions', 'isps_devices_connected', 'isps_device_events_total', 'isps_device_commands_pending', 'isps_db_ping_seconds', 'isps_db_committed_writes_total']) {
      expect(scraped.body, name).toContain(name);
    }
    expect(scraped.body).toMatch(/isps_http_requests_total\{method="GET",route="\/api\/monitor\/disk",status_code="200"\} \d+/);
    const byAdmin = await t.app.inject({ method: 'GET', url: MetricsPath, headers: { 'X-Access-Token': admin } });
    expect(byAdmin.statusCode).toBe(200);
  });

  it('keeps no token, cookie, password or card number in the HTTP trace or the metrics', async () => {
    const query = `token=${SECRETS.token}&password=${SECRETS.password}&cardNo=${SECRETS.card}&q=${SECRETS.card}&c=${SECRETS.cookie}`;
    const headers = { cookie: `session=${SECRETS.cookie}; card=${SECRETS.card}`, authorization: `Bearer ${SECRETS.token}`, 'x-password': SECRETS.password, 'x-card-no': SECRETS.card };
    await injectAs(t.app, admin, { method: 'GET', url: `${api(t.app, '/sys/user/list')}?${query}`, headers });
    await injectAs(t.app, null, { method: 'POST', url: `${api(t.app, ApiPath.login)}?${query}`, headers, payload: { username: 'admin', password: SECRETS.password, cardNo: SECRETS.card, token: SECRETS.token } });
    await injectAs(t.app, admin, { method: 'POST', url: `${api(t.app, MonitorPath.redisTerminal)}?${query}`, headers, payload: { command: `PING ${SECRETS.password}` } });
    await injectAs(t.app, null, { method: 'GET', url: `${api(t.app, `/nothing/${SECRETS.card}/${SECRETS.token}`)}?${query}`, headers });
    await t.app.inject({ method: 'GET', url: `${MetricsPath}?${query}`, headers: { ...headers, 'X-Access-Token': admin } });

    const trace = await get<TraceEntry[]>(MonitorPath.httpTrace);
    expect(trace.envelope.success).toBe(true);
    const entries = trace.envelope.result;
    expect(entries.length).toBeGreaterThanOrEqual(5);
    expect(entries.length).toBeLessThanOrEqual(MonitorLimits.traceSize);
    expect(entries.find((e) => e.path.startsWith('/api/sys/user/list'))).toMatchObject({ method: 'GET', status: 200, caller: 'admin' });
    expect(entries.find((e) => e.path.startsWith('/api/sys/login'))?.caller).toMatch(/\d|:/);
    const metrics = await t.app.inject({ method: 'GET', url: MetricsPath, headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } });
    for (const text of [trace.body, metrics.body]) {
      for (const [what, value] of Object.entries({ ...SECRETS, session: admin })) expect(text.includes(value), `${what} leaked`).toBe(false);
    }
  });
});

const withRedis = await redisReachable();

describe.skipIf(!withRedis)('the Redis screens with Redis', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { redis: true });
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const run = (command: string, lang = 'en-US') => injectAs<RedisTerminalAnswer>(t.app, admin, { method: 'POST', url: api(t.app, MonitorPath.redisTerminal), payload: { command }, headers: { lang } });

  it('shows INFO as sections of key/value rows', async () => {
    const answer = await injectAs<RedisInfoSection[]>(t.app, admin, { method: 'GET', url: api(t.app, MonitorPath.redisInfo) });
    expect(answer.envelope.success).toBe(true);
    const server = answer.envelope.result.find((s) => s.name === 'Server');
    expect(server?.entries.find((e) => e.key === 'redis_version')?.value).toMatch(/^\d+\./);
    expect(answer.envelope.result.map((s) => s.name)).toContain('Memory');
  });

  it('refuses FLUSHALL, CONFIG SET, EVAL, KEYS, SET and DEBUG, each naming the command', async () => {
    await t.app.cache.set('monitor-probe', 'kept', 60_000);
    for (const [line, name] of [['FLUSHALL', 'FLUSHALL'], ['config set maxmemory 1', 'CONFIG'], ['EVAL "return redis.call(\'flushall\')" 0', 'EVAL'], ['keys *', 'KEYS'], ['SET monitor-probe gone', 'SET'], ['DEBUG SLEEP 5', 'DEBUG']] as const) {
      const answer = await run(line);
      expect(answer.statusCode, line).toBe(200);
      expect(answer.envelope, line).toMatchObject({ success: false, code: 500 });
      expect(answer.envelope.message, line).toBe(`The command ${name} is not allowed: the terminal runs read-only commands only`);
    }
    expect((await run('FLUSHDB', 'zh-CN')).envelope.message).toBe('不允许执行命令 FLUSHDB：终端只运行只读命令');
    expect((await run('shutdown', 'ja-JP')).envelope.message).toContain('SHUTDOWN');
    // nothing was changed
    expect(await t.app.cache.get('monitor-probe')).toBe('kept');
  });

  it('runs an allowed command against Redis', async () => {
    expect((await run('PING')).envelope.result).toEqual({ command: 'PING', output: 'PONG' });
    const size = await run('dbsize');
    expect(size.envelope.result.output).toMatch(/^\(integer\) \d+$/);
    const info = await run('INFO server');
    expect(info.envelope.result.output).toContain('redis_version:');
    expect((await run(`TTL ${t.app.settings.cacheKeyPrefix}monitor-probe`)).envelope.result.output).toMatch(/^\(integer\) \d+$/);
    const scan = await run('SCAN 0 COUNT 100000');
    expect(scan.envelope.success).toBe(true);
    expect(scan.envelope.result.command).toBe(`SCAN 0 COUNT ${MonitorLimits.scanCountMax}`);
    const usage = await run('TTL');
    expect(usage.envelope.message).toBe('Wrong arguments for TTL: TTL key');
  });
});
