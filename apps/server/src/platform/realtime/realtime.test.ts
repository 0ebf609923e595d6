import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, RealtimeClose, RealtimeCmd, UserAdminPath } from '@isps/contract';
import { ADMIN_PASSWORD, USER_PASSWORD, adminToken, api, buildTestApp, changePassword, createTestUser, injectAs, login, tryLogin, type TestApp } from '../../test/harness.ts';
import { openSocket, wsBase, type OpenSocket } from './test-client.ts';

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

  it('upgrades on the real-time path only: elsewhere a handshake gets that route\'s HTTP answer and no socket', async () => {
    // @fastify/websocket and its per-request hooks belong to the real-time route's context
    expect(t.app.hasRequestDecorator('ws')).toBe(false);
    const answer = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(base + ApiPath.health);
      socket.on('unexpected-response', (_request, response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      socket.on('open', () => reject(new Error('a socket opened outside the real-time path')));
      socket.on('error', reject);
    });
    expect(answer).toBe(200);
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

describe('revoked tokens close their sockets', () => {
  let t: TestApp;
  let base: string;
  let admin: string;
  let carolId: string;

  /** the close code the server sent, or null when the socket is still open after `ms` */
  const closeCode = (socket: OpenSocket['socket'], ms = 2000) =>
    new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), ms);
      socket.once('close', (code) => (clearTimeout(timer), resolve(code)));
    });
  /** a heartbeat still gets its answer */
  const stillOpen = async (open: OpenSocket) => {
    const before = open.messages.length;
    open.socket.send('HeartBeat');
    await open.next((m) => m.cmd === RealtimeCmd.heartcheck && open.messages.indexOf(m) >= before);
    return open.socket.readyState === open.socket.OPEN;
  };

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = wsBase(t);
    admin = await adminToken(t.app);
    carolId = await createTestUser(t.app, 'carol');
  });
  afterAll(async () => {
    await t.close();
  });

  it('logout closes the sockets of that token with "signed out" and leaves the same user\'s other sessions open', async () => {
    const first = await login(t.app, 'carol', USER_PASSWORD);
    const second = await login(t.app, 'carol', USER_PASSWORD);
    const a = await openSocket(base, carolId, first);
    const a2 = await openSocket(base, carolId, first);
    const b = await openSocket(base, carolId, second);
    const closes = [closeCode(a.socket), closeCode(a2.socket)];
    const out = await injectAs(t.app, first, { method: 'POST', url: api(t.app, ApiPath.logout) });
    expect(out.envelope.success).toBe(true);
    expect(await Promise.all(closes)).toEqual([RealtimeClose.signedOut, RealtimeClose.signedOut]);
    expect(await stillOpen(b)).toBe(true);
    await expect.poll(() => t.app.realtime.connectionCount(carolId)).toBe(1);
    // and the ended token cannot open a new one
    await expect(openSocket(base, carolId, first)).rejects.toThrow('refused 401');
    await b.close();
  });

  it('freezing the user closes every socket of the user', async () => {
    const token = await login(t.app, 'carol', USER_PASSWORD);
    const other = await login(t.app, 'carol', USER_PASSWORD);
    const a = await openSocket(base, carolId, token);
    const b = await openSocket(base, carolId, other);
    const adminLogin = (await tryLogin(t.app, 'admin', ADMIN_PASSWORD)).envelope.result;
    const adminSocket = await openSocket(base, adminLogin.userInfo.id, adminLogin.token);
    const closes = [closeCode(a.socket), closeCode(b.socket)];
    const frozen = await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, UserAdminPath.frozenBatch), payload: { ids: carolId, status: 2 } });
    expect(frozen.envelope.success).toBe(true);
    expect(await Promise.all(closes)).toEqual([RealtimeClose.signedOut, RealtimeClose.signedOut]);
    await expect.poll(() => t.app.realtime.connectionCount(carolId)).toBe(0);
    expect(await stillOpen(adminSocket)).toBe(true);
    await adminSocket.close();
    await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, UserAdminPath.frozenBatch), payload: { ids: carolId, status: 1 } });
  });

  it('a password change closes the sockets of every session of the user', async () => {
    const token = await login(t.app, 'carol', USER_PASSWORD);
    const a = await openSocket(base, carolId, token);
    const closing = closeCode(a.socket);
    const changed = await changePassword(t.app, token, 'carol', USER_PASSWORD, 'Carol#Pass4444');
    expect(changed.envelope.success).toBe(true);
    expect(await closing).toBe(RealtimeClose.signedOut);
  });

  it('a token that expires closes its sockets at that moment', async () => {
    const token = await login(t.app, 'carol', 'Carol#Pass4444');
    const soon = new Date(t.app.clock() + 1500).toISOString();
    await t.app.db.updateTable('sys_user_token').set({ expires_at: soon }).where('token_hash', '=', t.app.tokens.fingerprint(token)).execute();
    const open = await openSocket(base, carolId, token);
    const closing = closeCode(open.socket, 4000);
    expect(await stillOpen(open)).toBe(true);
    expect(await closing).toBe(RealtimeClose.signedOut);
  });
});
