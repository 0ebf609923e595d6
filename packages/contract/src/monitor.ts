/**
 * Monitoring screens (SPEC section 2 "monitoring"): system administrators read how the server runs. Paths are below
 * API_PREFIX except `MetricsPath`, which a Prometheus scraper reads at the server's root.
 */
export const MonitorPath = {
  disk: '/monitor/disk',
  httpTrace: '/monitor/httpTrace',
  /** the Node runtime (the origin console's JVM screen) */
  runtime: '/monitor/jvm',
  /** the HTTP server (the origin console's Tomcat screen) */
  webServer: '/monitor/tomcat',
  server: '/monitor/server',
  redisInfo: '/monitor/redis/info',
  /** POST `{ command }`: one read-only Redis command of an allow-list */
  redisTerminal: '/monitor/redis/terminal',
} as const;

/** Prometheus text format; `Authorization: Bearer <METRICS_TOKEN>` or an administrator's session token. */
export const MetricsPath = '/metrics';

export const MonitorPerm = {
  disk: 'monitor:disk:view',
  httpTrace: 'monitor:httpTrace:view',
  runtime: 'monitor:jvm:view',
  redis: 'monitor:redis:view',
  redisTerminal: 'monitor:redisTerminal:view',
  redisExecute: 'monitor:redisTerminal:execute',
  server: 'monitor:server:view',
  webServer: 'monitor:tomcat:view',
} as const;

export const MonitorLimits = {
  /** requests the HTTP trace keeps, newest first */
  traceSize: 100,
  /** runtime samples: one every `sampleMs`, the last hour */
  sampleMs: 5000,
  samplesKept: 720,
  /** longest Redis terminal line, characters */
  terminalLineMax: 512,
  terminalTimeoutMs: 3000,
  /** SCAN's COUNT is capped to this */
  scanCountMax: 1000,
  /** refresh choices the screens offer, seconds (0: off) */
  refreshSeconds: [0, 5, 10, 30],
} as const;

export interface DiskInfo {
  mount: string;
  filesystem: string;
  type: string;
  size: number;
  free: number;
  used: number;
  /** 0–100 */
  usedPercent: number;
  /** holds DATA_DIR */
  dataDir: boolean;
}

export interface TraceEntry {
  /** epoch ms */
  time: number;
  method: string;
  /** the route template (or the path of an unknown one) and the query with the values of secret-looking names masked */
  path: string;
  status: number;
  durationMs: number;
  /** the signed-in user's name, else the client address */
  caller: string;
}

export interface RuntimeSample {
  time: number;
  heapUsed: number;
  heapTotal: number;
  rss: number;
  /** event-loop delay over the sample, ms */
  loopDelayMean: number;
  loopDelayP99: number;
  loopDelayMax: number;
  /** 0–1 */
  loopUtilization: number;
  gcCount: number;
  gcPauseMs: number;
}

export interface RuntimeInfo {
  nodeVersion: string;
  uptimeSeconds: number;
  activeHandles: number;
  current: RuntimeSample;
  samples: RuntimeSample[];
}

export interface WebServerInfo {
  requestsPerSecond: number;
  totalRequests: number;
  statusCounts: Record<string, number>;
  latencyMs: { p50: number; p95: number; p99: number };
  openConnections: number;
  websocketSessions: number;
  mqttDevices: number;
  /** whether the device link's MQTT client is connected */
  mqttLinked: boolean;
}

export interface ServerInfo {
  os: { platform: string; release: string; arch: string; hostname: string };
  cpu: { model: string; count: number; loadAverage: number[] };
  memory: { total: number; free: number };
  process: { pid: number; uptimeSeconds: number; nodeVersion: string };
  database: { engine: 'SQLite' | 'PostgreSQL' | 'MariaDB/MySQL'; version: string };
  broker: { kind: 'embedded' | 'external' | 'none'; url: string | null; connected: boolean };
}

export interface RedisInfoSection {
  name: string;
  entries: Array<{ key: string; value: string }>;
}

export interface RedisTerminalAnswer {
  command: string;
  output: string;
}

/** The read-only commands the Redis terminal runs (every other one is refused by name). */
export const RedisTerminalCommands = ['PING', 'INFO', 'DBSIZE', 'TIME', 'TYPE', 'TTL', 'PTTL', 'STRLEN', 'HLEN', 'LLEN', 'SCARD', 'ZCARD', 'EXISTS', 'SCAN'] as const;
