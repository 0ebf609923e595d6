import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RealtimeCmd, realtimePath, type RealtimeMessage } from '@isps/contract';
import { USER_PASSWORD, adminToken, buildTestApp, createTestUser, login, type TestApp } from '../../test/harness.ts';

export interface OpenSocket {
  socket: WebSocket;
  messages: RealtimeMessage[];
  /** resolves with the first message (already received or later) that matches */
  next(match: (m: RealtimeMessage) => boolean, timeoutMs?: number): Promise<RealtimeMessage>;
  close(): Promise<void>;
}

export function wsBase(t: TestApp): string {
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return `ws://127.0.0.1:${address.port}${t.app.settings.apiPrefix}`;
}

/** Opens a socket the way the console does; rejects with the HTTP status when the handshake is refused. */
export function openSocket(base: string, userId: string, token: string | null): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(base + realtimePath(userId), token ? [token] : []);
    const messages: RealtimeMessage[] = [];
    const waiters: Array<{ match: (m: RealtimeMessage) => boolean; done: (m: RealtimeMessage) => void }> = [];
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as RealtimeMessage;
      messages.push(message);
      for (const waiter of [...waiters]) {
        if (waiter.match(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.done(message);
        }
      }
    });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (c) => (body += String(c)));
      response.on('end', () => reject(new Error(`refused ${response.statusCode} ${body}`)));
    });
    socket.on('error', reject);
    socket.on('open', () =>
      resolve({
        socket,
        messages,
        next: (match, timeoutMs = 1000) =>
          new Promise((done, fail) => {
            const seen = messages.find(match);
            if (seen) return done(seen);
            const timer = setTimeout(() => fail(new Error('no matching message in time')), timeoutMs);
            waiters.push({ match, done: (m) => (clearTimeout(timer), done(m)) });
          }),
        close: () =>
          new Promise((done) => {
            if (socket.readyState === WebSocket.CLOSED) return done();
            socket.once('close', () => done());
            socket.close();
          }),
      }),
    );
  });
}

describe('real-time channel handshake', () => {
  let t: TestApp;
  let base: string;
  let aliceId: string;
  let bobId: string;
  let aliceToken: string;
  let bobToken: string;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = wsBase(t);
    await adminToken(t.app);
    aliceId = await createTestUser(t.app, 'alice');
    bobId = await createTestUser(t.app, 'bob');
    aliceToken = await login(t.app, 'alice', USER_PASSWORD);
    bobToken = await login(t.app, 'bob', USER_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a handshake without a token, with a bad token, or for another user', async () => {
    await expect(openSocket(base, aliceId, null)).rejects.toThrow('refused 401');
    await expect(openSocket(base, aliceId, 'x'.repeat(43))).rejects.toThrow('refused 401');
    await expect(openSocket(base, aliceId, bobToken)).rejects.toThrow('refused 403');
    expect(t.app.realtime.connectionCount()).toBe(0);
  });

  it('echoes the token subprotocol and answers a heartbeat to that socket only', async () => {
    const alice = await openSocket(base, aliceId, aliceToken);
    const bob = await openSocket(base, bobId, bobToken);
    expect(alice.socket.protocol).toBe(aliceToken);
    alice.socket.send('HeartBeat');
    alice.socket.send(JSON.stringify({ cmd: 'user', msgTxt: 'forged notice for bob' }));
    await alice.next((m) => m.cmd === RealtimeCmd.heartcheck);
    await new Promise((r) => setTimeout(r, 200));
    expect(bob.messages).toEqual([]);
    expect(alice.messages.every((m) => m.cmd === RealtimeCmd.heartcheck)).toBe(true);
    await Promise.all([alice.close(), bob.close()]);
  });
});
