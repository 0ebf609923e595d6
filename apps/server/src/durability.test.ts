import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DeviceEventKind, TOKEN_HEADER, type Envelope } from '@isps/contract';
import { provisionDevices, SimDevice } from '@isps/device-sim';
import { freePort } from './test/free-port.ts';
import { ADMIN_PASSWORD, createNamespace, INITIAL_ADMIN_PASSWORD, POSTGRES_URL, testDialects, type TestNamespace } from './test/harness.ts';

// A standing reliability test (issue: "faults that lose nothing"): the server process dies by SIGKILL in the middle
// of a stream of acknowledged writes and receipted device events; what it acknowledged is there after a restart.

const main = join(dirname(fileURLToPath(import.meta.url)), 'main.ts');
const WRITES = 1000;
/** the server is killed once this many writes of the stream were acknowledged */
const KILL_AFTER = 400;
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts main.ts as `npm run dev:server` would and resolves once it listens. */
function startServer(env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Server listening')) resolve(child);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}) before listening:\n${output.slice(-2000)}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function stopped(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  children.delete(child);
}

function client(apiBase: string) {
  let token = '';
  const call = async <T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> => {
    const response = await fetch(apiBase + path, {
      method,
      headers: { 'content-type': 'application/json', lang: 'en-US', ...(token ? { [TOKEN_HEADER]: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Envelope<T>;
  };
  const signIn = async (password: string) => {
    const answer = await call<{ token: string }>('POST', '/sys/login', { username: 'admin', password });
    if (!answer.success) throw new Error(`login: ${answer.message}`);
    token = answer.result.token;
    return token;
  };
  return { call, signIn };
}

/** The sequence numbers of the events stored for one device, read from the database itself. */
async function storedSeqs(namespace: TestNamespace, sn: string): Promise<Set<number>> {
  const sql = 'select e.seq from sys_device_event e join sys_device d on d.id = e.device_id where d.sn = ';
  if (namespace.dialect === 'sqlite') {
    const db = new Database(namespace.databaseUrl, { readonly: true });
    try {
      return new Set(db.prepare<[string], { seq: number }>(`${sql}?`).all(sn).map((row) => Number(row.seq)));
    } finally {
      db.close();
    }
  }
  const schema = new URL(namespace.databaseUrl).searchParams.get('schema') ?? 'public';
  const db = new pg.Client({ connectionString: POSTGRES_URL });
  await db.connect();
  try {
    await db.query(`set search_path to ${schema}`);
    return new Set((await db.query<{ seq: string | number }>(`${sql}$1`, [sn])).rows.map((row) => Number(row.seq)));
  } finally {
    await db.end();
  }
}

const dialects = (await testDialects()).filter((dialect) => dialect !== 'mysql');

describe.each(dialects)('acknowledged work survives kill -9 on %s', (dialect) => {
  it(`loses none of a stream of ${WRITES} acknowledged writes, nor a receipted device event`, { timeout: 240_000 }, async () => {
    const namespace = await createNamespace(dialect);
    const port = await freePort();
    const mqttPort = await freePort();
    const env = {
      DATA_DIR: namespace.dataDir,
      DATABASE_URL: namespace.databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      LOGIN_CAPTCHA: 'off',
      ADMIN_PASSWORD: INITIAL_ADMIN_PASSWORD,
      TOKEN_PEPPER: 'durability-pepper-0123456789-0123456789',
      TIME_ZONE: 'UTC',
      LOG_LEVEL: 'info',
    };
    const apiBase = `http://127.0.0.1:${port}/api`;
    let device: SimDevice | null = null;
    try {
      let server = await startServer(env);
      const api = client(apiBase);
      await api.signIn(INITIAL_ADMIN_PASSWORD);
      const changed = await api.call('PUT', '/sys/user/updatePassword', { username: 'admin', oldpassword: INITIAL_ADMIN_PASSWORD, password: ADMIN_PASSWORD, confirmpassword: ADMIN_PASSWORD });
      expect(changed.success, changed.message).toBe(true);
      const token = await api.signIn(ADMIN_PASSWORD);

      const sn = `DUR-${dialect}-${port}`;
      const keys = await provisionDevices(apiBase, token, [sn]);
      // the device never sends an event again during the test: what the server stored before it died is all it has
      device = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn, key: keys.get(sn)!, kind: 'door', receiptWaitMs: 3_600_000 });
      await device.start();

      // four writers and one device at once; the server is killed in the middle of the stream
      const acknowledged: string[] = [];
      let next = 0;
      let dead = false;
      const writer = async () => {
        while (!dead && next < WRITES) {
          const code = `DUR-${next++}`;
          try {
            const answer = await api.call('POST', '/sys/position/add', { code, name: code, postRank: '1' });
            if (answer.success) acknowledged.push(code);
            else throw new Error(`refused: ${answer.message}`);
          } catch (error) {
            if (!dead) throw error;
          }
        }
      };
      const sent: number[] = [];
      // a device keeps an unanswered publish until it reconnects: once the server is dead its last one is not awaited
      let stopEmitting = () => {};
      const halted = new Promise<void>((resolve) => (stopEmitting = resolve));
      const emitter = async () => {
        while (!dead) {
          const event = await Promise.race([device!.emit(DeviceEventKind.doorState, { door: 1, state: 'open' }).catch(() => null), halted.then(() => null)]);
          if (!event) return;
          sent.push(event.seq);
        }
      };
      const killer = (async () => {
        while (acknowledged.length < KILL_AFTER) await new Promise((resolve) => setTimeout(resolve, 5));
        dead = true;
        await killed(server);
        stopEmitting();
      })();
      await Promise.all([writer(), writer(), writer(), writer(), emitter(), killer]);
      device.kill();
      // receipted: sent and no longer waiting for a receipt (one whose receipt came before its send resolved counts as not)
      const receipted = sent.filter((seq) => !device!.memory.unreceipted.has(seq));
      expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
      expect(receipted.length).toBeGreaterThan(0);

      server = await startServer(env);
      await api.signIn(ADMIN_PASSWORD);
      const listed = await api.call<{ records: Array<{ code: string }> }>('GET', `/sys/position/list?pageSize=${WRITES}&code=DUR-*`);
      expect(listed.success, listed.message).toBe(true);
      const stored = new Set(listed.result.records.map((row) => row.code));
      expect(acknowledged.filter((code) => !stored.has(code))).toEqual([]);
      await stopped(server);

      const storedEvents = await storedSeqs(namespace, sn);
      expect(receipted.filter((seq) => !storedEvents.has(seq))).toEqual([]);
    } finally {
      device?.kill();
      for (const child of children) await killed(child);
      children.clear();
      await namespace.drop();
    }
  });
});
