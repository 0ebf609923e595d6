import { REALTIME_HEARTBEAT_TEXT, RealtimeClose, RealtimeRetry, type RealtimeMessage } from '@isps/contract';

/** What the client needs of a WebSocket; the browser's class fits, tests pass a fake. */
export interface SocketLike {
  readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

const OPEN = 1;

export interface RealtimeClientOptions {
  url: string;
  token: string;
  onMessage: (message: RealtimeMessage) => void;
  onOpen?: () => void;
  /** the server closed the socket because its token was revoked: the client has stopped, the user signs in again */
  onSignedOut?: () => void;
  createSocket?: SocketFactory;
}

/**
 * One authenticated socket with SPEC section 4's retry: after an error or close wait 3 s, 3 s more per failed
 * attempt, back to 3 s once open. While open, a heartbeat text goes out after the current retry timeout of quiet.
 */
export class RealtimeClient {
  private socket: SocketLike | null = null;
  private retryMs: number = RealtimeRetry.startMs;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeatTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly createSocket: SocketFactory;

  constructor(private readonly options: RealtimeClientOptions) {
    this.createSocket = options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols) as unknown as SocketLike);
  }

  /** The wait before the next attempt (what the heartbeat timer also uses). */
  get currentRetryMs(): number {
    return this.retryMs;
  }

  get connected(): boolean {
    return this.socket?.readyState === OPEN;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
      socket.close(1000);
    }
  }

  private connect(): void {
    if (this.stopped) return;
    let socket: SocketLike;
    try {
      socket = this.createSocket(this.options.url, [this.options.token]);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = RealtimeRetry.startMs;
      this.armHeartbeat();
      this.options.onOpen?.();
    };
    socket.onmessage = (event) => {
      this.armHeartbeat();
      const message = parse(event.data);
      if (message) this.options.onMessage(message);
    };
    // A failed socket fires error then close: one retry for both.
    socket.onerror = () => this.dropAndRetry(socket);
    socket.onclose = (event) => {
      if (closeCode(event) === RealtimeClose.signedOut && this.socket === socket) {
        // retrying with a revoked token would only be refused, forever
        this.stop();
        this.options.onSignedOut?.();
        return;
      }
      this.dropAndRetry(socket);
    };
  }

  private dropAndRetry(socket: SocketLike): void {
    if (this.socket !== socket) return;
    socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
    this.socket = null;
    try {
      socket.close();
    } catch {
      // already closed
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    this.clearTimers();
    if (this.stopped) return;
    const wait = this.retryMs;
    this.retryMs += RealtimeRetry.stepMs;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, wait);
  }

  private armHeartbeat(): void {
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeatTimer = null;
      if (this.socket?.readyState === OPEN) {
        this.socket.send(REALTIME_HEARTBEAT_TEXT);
        this.armHeartbeat();
      }
    }, this.retryMs);
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.retryTimer = this.heartbeatTimer = null;
  }
}

function closeCode(event: unknown): number | undefined {
  const code = (event as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function parse(data: unknown): RealtimeMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as unknown;
    return value && typeof value === 'object' && typeof (value as RealtimeMessage).cmd === 'string' ? (value as RealtimeMessage) : null;
  } catch {
    return null;
  }
}

/** ws(s)://host/api/websocket/{userId}: the API base with http(s) turned into ws(s). */
export function realtimeUrl(apiBase: string, path: string, location: { protocol: string; host: string }): string {
  const base = /^https?:\/\//i.test(apiBase)
    ? apiBase.replace(/^http/i, 'ws')
    : `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${apiBase.startsWith('/') ? '' : '/'}${apiBase}`;
  return `${base.replace(/\/$/, '')}${path}`;
}
