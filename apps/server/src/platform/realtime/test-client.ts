import WebSocket from 'ws';
import { realtimePath, type RealtimeMessage } from '@isps/contract';
import type { TestApp } from '../../test/harness.ts';

/** A websocket client for tests, opened the way the console opens it (the token as the subprotocol). */
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
        next: (match, timeoutMs = 10_000) =>
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
