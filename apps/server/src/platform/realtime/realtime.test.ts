import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RealtimeCmd } from '@isps/contract';
import { USER_PASSWORD, adminToken, buildTestApp, createTestUser, login, type TestApp } from '../../test/harness.ts';
import { openSocket, wsBase } from './test-client.ts';

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
