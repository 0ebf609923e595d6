import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, DeviceEventKind, positionEntity } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../gateway/test-support.ts';
import { openSocket, wsBase, type OpenSocket } from '../platform/realtime/test-client.ts';
import { freePort } from '../test/free-port.ts';
import { ADMIN_PASSWORD, api, changePassword, INITIAL_ADMIN_PASSWORD, injectAs, testDialects, tryLogin, type TestApp } from '../test/harness.ts';

// A standing fault test: the console's PostgreSQL restarts while people work. Every request answers within 2 s (a
// clear, localised refusal while the database is away), nothing acknowledged is lost, and the server works again by
// itself within 10 s of the database's return. The database is a cluster of the test's own, on a port of its own.

const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

/** Runs a PostgreSQL tool as the `postgres` user when this process is root (PostgreSQL refuses to run as root). */
function pgTool(tool: string, args: string[]): void {
  const command = join(POSTGRES_BIN, tool);
  const run = userInfo().uid === 0 ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' }) : spawnSync(command, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${tool} ${args.join(' ')}: ${run.stderr || run.stdout}`);
}

class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'isps-pg-'));
  readonly data = join(this.dir, 'data');
  constructor(readonly port: number) {
    if (userInfo().uid === 0) {
      const postgres = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
      chownSync(this.dir, Number(postgres.stdout), Number(group.stdout));
      chmodSync(this.dir, 0o700);
    }
    pgTool('initdb', ['-D', this.data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    pgTool('pg_ctl', ['-D', this.data, '-w', '-l', join(this.dir, 'log'), '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  }

  stop(): void {
    pgTool('pg_ctl', ['-D', this.data, '-w', '-m', 'fast', 'stop']);
  }

  remove(): void {
    try {
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const usable = (await testDialects()).includes('postgres') && spawnSync(join(POSTGRES_BIN, 'pg_ctl'), ['--version']).status === 0;

describe.skipIf(!usable)('PostgreSQL restarted while people work', () => {
  let database: PrivatePostgres;
  let t: TestApp & { mqttUrl: string };
  let token: string;
  let userId: string;
  let socket: OpenSocket | undefined;
  let device: SimDevice | undefined;

  beforeAll(async () => {
    database = new PrivatePostgres(await freePort());
    database.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'isps-outage-'));
    const namespace = { dialect: 'postgres' as const, dataDir, databaseUrl: database.url, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
    t = await buildLinkedApp('postgres', { namespace, gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const first = await tryLogin(t.app, 'admin', INITIAL_ADMIN_PASSWORD);
    await changePassword(t.app, first.envelope.result.token, 'admin', INITIAL_ADMIN_PASSWORD, ADMIN_PASSWORD);
    const signedIn = await tryLogin(t.app, 'admin', ADMIN_PASSWORD);
    token = signedIn.envelope.result.token;
    userId = signedIn.envelope.result.userInfo.id;
  });

  afterAll(async () => {
    await socket?.close();
    await Promise.race([device?.stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);
    await t?.app.close();
    await t?.namespace.drop();
    database?.remove();
  });

  const addPosition = async (code: string) => {
    const started = performance.now();
    const answer = await injectAs(t.app, token, { method: 'POST', url: api(t.app, crudPath(positionEntity, 'add')), payload: { code, name: code, postRank: '1' }, headers: { lang: 'en-US' } });
    return { answer, ms: performance.now() - started };
  };

  it('answers every request within 2 s with a localised refusal while it is away, loses nothing acknowledged, and recovers within 10 s', { timeout: 90_000 }, async () => {
    socket = await openSocket(wsBase(t), userId, token);
    const sn = uniqueSn('PGO');
    device = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, token), kind: 'door', receiptWaitMs: 1000 });
    await device.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'device online');
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { answer } = await addPosition(`BEFORE-${i}`);
      expect(answer.envelope.success, answer.envelope.message).toBe(true);
      acknowledged.push(`BEFORE-${i}`);
    }

    database.stop();
    const refusals = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const { answer, ms } = await addPosition(`DURING-${i}`);
      expect(ms).toBeLessThan(2000);
      expect(answer.envelope.success).toBe(false);
      expect(answer.statusCode).toBe(503);
      refusals.add(answer.envelope.message);
      const list = await injectAs(t.app, token, { method: 'GET', url: `${api(t.app, crudPath(positionEntity, 'list'))}?pageSize=5`, headers: { lang: 'ja-JP' } });
      expect(list.statusCode).toBe(503);
      expect(list.envelope.message).toMatch(/データベース/);
    }
    expect([...refusals]).toEqual([expect.stringMatching(/database does not answer/i)]);
    // signing in says so too, at once; devices go on sending, and the real-time channel stays open
    const started = performance.now();
    const login = await tryLogin(t.app, 'admin', ADMIN_PASSWORD, {}, 'zh-CN');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(login.statusCode).toBe(503);
    expect(login.envelope.message).toMatch(/数据库/);
    const events: number[] = [];
    for (let i = 0; i < 10; i++) events.push((await device!.emit(DeviceEventKind.doorState, { door: 1, state: i % 2 ? 'open' : 'closed' })).seq);
    expect(socket.socket.readyState).toBe(socket.socket.OPEN);

    database.start();
    const back = performance.now();
    let recovered = false;
    for (let i = 0; performance.now() - back < 10_000; i++) {
      const { answer, ms } = await addPosition(`AFTER-${i}`);
      expect(ms).toBeLessThan(2000);
      if (answer.envelope.success) {
        acknowledged.push(`AFTER-${i}`);
        recovered = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(true);

    const listed = await injectAs<{ records: Array<{ code: string }> }>(t.app, token, { method: 'GET', url: `${api(t.app, crudPath(positionEntity, 'list'))}?pageSize=100` });
    const codes = new Set(listed.envelope.result.records.map((row) => row.code));
    expect(acknowledged.filter((code) => !codes.has(code))).toEqual([]);
    // the events the device sent meanwhile had no receipt: it sends them again, and every one is stored once
    const stored = async () =>
      (await t.app.db.selectFrom('sys_device_event as e').innerJoin('sys_device as d', 'd.id', 'e.device_id').select('e.seq').where('d.sn', '=', sn).execute()).map((row) => Number(row.seq));
    await until(
      async () => {
        const have = new Set(await stored());
        return events.every((seq) => have.has(seq));
      },
      15_000,
      'events sent during the outage stored',
    );
    const seqs = await stored();
    expect(seqs.length).toBe(new Set(seqs).size);
    expect(socket.socket.readyState).toBe(socket.socket.OPEN);
  });
});
