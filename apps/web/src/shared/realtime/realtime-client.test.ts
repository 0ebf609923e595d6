import { REALTIME_HEARTBEAT_TEXT, RealtimeClose, type RealtimeMessage } from '@isps/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emitAppEvent, onAppEvent } from './app-events.ts';
import { RealtimeClient, realtimeUrl, type SocketLike } from './realtime-client.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  sent: string[] = [];
  closed = false;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  fail() {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({});
  }
  closedByServer(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  receive(message: RealtimeMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

describe('RealtimeClient', () => {
  let sockets: FakeSocket[];
  let messages: RealtimeMessage[];
  let client: RealtimeClient;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    messages = [];
    client = new RealtimeClient({
      url: 'ws://host/api/websocket/u1',
      token: 'tok',
      onMessage: (m) => messages.push(m),
      createSocket: (url, protocols) => {
        const socket = new FakeSocket(url, protocols);
        sockets.push(socket);
        return socket;
      },
    });
  });
  afterEach(() => {
    client.stop();
    vi.useRealTimers();
  });

  it('connects with the token as the only subprotocol and passes commands on', () => {
    client.start();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe('ws://host/api/websocket/u1');
    expect(sockets[0]!.protocols).toEqual(['tok']);
    sockets[0]!.open();
    sockets[0]!.receive({ cmd: 'topic', msgId: 'a1' });
    sockets[0]!.onmessage?.({ data: 'not json' });
    expect(messages).toEqual([{ cmd: 'topic', msgId: 'a1' }]);
  });

  it('stops for good when the server says the token was revoked, and reports it once', () => {
    const signedOut = vi.fn();
    const revoked = new RealtimeClient({
      url: 'ws://host/api/websocket/u1',
      token: 'tok',
      onMessage: () => undefined,
      onSignedOut: signedOut,
      createSocket: (url, protocols) => {
        const socket = new FakeSocket(url, protocols);
        sockets.push(socket);
        return socket;
      },
    });
    revoked.start();
    sockets[0]!.open();
    sockets[0]!.closedByServer(RealtimeClose.signedOut);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(signedOut).toHaveBeenCalledTimes(1);
    expect(revoked.connected).toBe(false);
  });

  it('retries after a server shutdown close like after any other close', () => {
    client.start();
    sockets[0]!.open();
    sockets[0]!.closedByServer(RealtimeClose.serverShutdown);
    vi.advanceTimersByTime(3000);
    expect(sockets).toHaveLength(2);
  });

  it('retries after 3 s, then 6 s, then 9 s, and waits 3 s again once a socket opened', () => {
    client.start();
    sockets[0]!.fail();
    vi.advanceTimersByTime(2999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);

    sockets[1]!.fail();
    vi.advanceTimersByTime(5999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    sockets[2]!.fail();
    vi.advanceTimersByTime(8999);
    expect(sockets).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(4);

    sockets[3]!.open();
    expect(client.currentRetryMs).toBe(3000);
    sockets[3]!.fail();
    vi.advanceTimersByTime(2999);
    expect(sockets).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(5);
  });

  it('an error followed by a close counts as one failure', () => {
    client.start();
    sockets[0]!.fail();
    expect(client.currentRetryMs).toBe(6000);
  });

  it('sends the heartbeat text after the current retry timeout of quiet', () => {
    client.start();
    sockets[0]!.open();
    vi.advanceTimersByTime(2999);
    expect(sockets[0]!.sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sockets[0]!.sent).toEqual([REALTIME_HEARTBEAT_TEXT]);
    sockets[0]!.receive({ cmd: 'heartcheck' });
    vi.advanceTimersByTime(3000);
    expect(sockets[0]!.sent).toHaveLength(2);
  });

  it('stop closes the socket and never retries', () => {
    client.start();
    sockets[0]!.open();
    client.stop();
    expect(sockets[0]!.closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });
});

describe('realtimeUrl', () => {
  it('turns the API base into a websocket address', () => {
    expect(realtimeUrl('/api', '/websocket/u1', { protocol: 'http:', host: 'h:1' })).toBe('ws://h:1/api/websocket/u1');
    expect(realtimeUrl('/api', '/websocket/u1', { protocol: 'https:', host: 'h' })).toBe('wss://h/api/websocket/u1');
    expect(realtimeUrl('https://x.example/api/', '/websocket/u1', { protocol: 'http:', host: 'h' })).toBe('wss://x.example/api/websocket/u1');
  });
});

describe('app events', () => {
  it('delivers to subscribers until they leave', () => {
    const seen: unknown[] = [];
    const off = onAppEvent('doorState', (p) => seen.push(p.data));
    emitAppEvent('doorState', { data: 1 });
    off();
    emitAppEvent('doorState', { data: 2 });
    expect(seen).toEqual([1]);
  });
});
