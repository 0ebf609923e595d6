import { DeviceCommandStatus } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { onCommittedWrite } from '../../db/database.ts';

/**
 * The Prometheus figures of one app (its own registry: tests build many apps in one process). Labels carry route
 * templates only, never a raw URL, so no value a caller sent reaches them. Process and event-loop figures
 * (prom-client's defaults) start at the first scrape, so an app nobody scrapes keeps no extra monitors.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status_code'>;
  private readonly durations: Histogram<'method' | 'route' | 'status_code'>;
  readonly deviceEvents: Counter;
  private readonly dbWrites: Counter;
  private defaultsOn = false;
  private readonly stopWrites: () => void;

  constructor(app: FastifyInstance) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'isps_http_requests_total', help: 'HTTP requests answered, by method, route template and status code', labelNames: ['method', 'route', 'status_code'], registers });
    this.durations = new Histogram({
      name: 'isps_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route template and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.deviceEvents = new Counter({ name: 'isps_device_events_total', help: 'Device events received over the device link', registers });
    this.dbWrites = new Counter({ name: 'isps_db_committed_writes_total', help: 'Committed database writes (transactions and statements that changed rows)', registers });
    this.stopWrites = onCommittedWrite(app.db, () => this.dbWrites.inc());
    new Gauge({
      name: 'isps_db_ping_seconds',
      help: 'Time the database takes to answer a trivial query, measured at the scrape',
      registers,
      async collect() {
        const started = process.hrtime.bigint();
        try {
          await sql`select 1`.execute(app.db);
          this.set(Number(process.hrtime.bigint() - started) / 1e9);
        } catch {
          this.set(-1);
        }
      },
    });
    new Gauge({ name: 'isps_websocket_sessions', help: 'Open console websocket sessions on this instance', registers, collect() { this.set(app.realtime.connectionCount()); } });
    new Gauge({ name: 'isps_device_link_up', help: '1 when the device link (MQTT client) is connected', registers, collect() { this.set(app.deviceGateway.connected ? 1 : 0); } });
    new Gauge({
      name: 'isps_devices_connected',
      help: 'Devices shown online',
      registers,
      async collect() {
        this.set(await countOnlineDevices(app));
      },
    });
    new Gauge({
      name: 'isps_device_commands_pending',
      help: 'Device commands queued and not yet delivered',
      registers,
      async collect() {
        const row = await app.db.selectFrom('sys_device_command').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', DeviceCommandStatus.pending).executeTakeFirst();
        this.set(Number(row?.n ?? 0));
      },
    });
  }

  /** Called from the onResponse hook. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status_code: String(status) };
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
  }

  async text(): Promise<{ contentType: string; body: string }> {
    if (!this.defaultsOn) {
      this.defaultsOn = true;
      collectDefaultMetrics({ register: this.registry, prefix: 'isps_' });
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  close(): void {
    this.stopWrites();
    this.registry.clear();
  }
}

export async function countOnlineDevices(app: FastifyInstance): Promise<number> {
  const row = await app.db.selectFrom('sys_device').select((eb) => eb.fn.countAll<number>().as('n')).where('online', '=', 1).executeTakeFirst();
  return Number(row?.n ?? 0);
}
