import { randomUUID } from 'node:crypto';
import { WebhookDeliveryStatus, type WebhookEventKind, type WebhookPayload, type WEBHOOK_TEST_KIND } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from './clock.ts';

/** An event for the webhooks of a tenant: what happened and when (epoch ms); `data` never holds a card number or key. */
export interface WebhookEvent {
  kind: WebhookEventKind | typeof WEBHOOK_TEST_KIND;
  time: number;
  data: Record<string, unknown>;
}

interface Subscription {
  id: string;
  kinds: ReadonlySet<string>;
}

/** How long the enabled subscriptions are kept before they are read again (edits made here drop them at once). */
const SUBSCRIPTIONS_KEPT_MS = 5000;
/** the largest body a delivery carries: an event's data is small, this only bounds a mistake */
const BODY_MAX = 16_384;

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookOutbox;
  }
}

/**
 * The webhook outbox as the modules that have events reach it (device events, presence, emergencies, visits): each
 * event becomes one delivery row per enabled subscription of its tenant that names its kind, written on the handle
 * given, so a caller inside the transaction that stores the event queues its deliveries in that very transaction.
 * Sending is the webhook module's delivery worker, which is told (`queued`) when there is something to send.
 */
export class WebhookOutbox {
  private kept: { until: number; byTenant: Map<string, Subscription[]> } | null = null;
  /** called after deliveries were queued here (the worker looks at the queue soon) */
  queued: () => void = () => undefined;

  constructor(
    private readonly clock: Clock,
    private readonly retryWindowMs: () => number,
  ) {}

  /** The subscriptions changed (here or, through the event bus, on another server). */
  forget(): void {
    this.kept = null;
  }

  private async subscriptionsOf(db: Kysely<Database>, tenantId: string): Promise<Subscription[]> {
    const now = Date.now();
    if (!this.kept || this.kept.until <= now) {
      const rows = await db.selectFrom('sys_webhook').select(['id', 'tenant_id', 'events']).where('enabled', '=', 1).execute();
      const byTenant = new Map<string, Subscription[]>();
      for (const row of rows) {
        if (row.tenant_id === null) continue;
        const list = byTenant.get(row.tenant_id) ?? [];
        list.push({ id: row.id, kinds: new Set(row.events.split(',').map((k) => k.trim())) });
        byTenant.set(row.tenant_id, list);
      }
      this.kept = { until: now + SUBSCRIPTIONS_KEPT_MS, byTenant };
    }
    return this.kept.byTenant.get(tenantId) ?? [];
  }

  /**
   * Queues `events` (in their order) to the tenant's subscriptions of their kinds, or to the one subscription `only`
   * whatever its kinds (a test event). Runs in a transaction of its own unless `db` is one. Answers how many
   * deliveries were queued.
   */
  async enqueue(db: Kysely<Database>, tenantId: string | null, events: readonly WebhookEvent[], only?: string): Promise<number> {
    if (tenantId === null || events.length === 0) return 0;
    const subscriptions = only ? [{ id: only, kinds: null }] : await this.subscriptionsOf(db, tenantId);
    if (subscriptions.length === 0) return 0;
    const ids = events.map(() => randomUUID());
    const work = subscriptions
      .map((s) => ({ id: s.id, events: events.map((event, index) => ({ event, id: ids[index] as string })).filter(({ event }) => s.kinds === null || s.kinds.has(event.kind)) }))
      .filter((s) => s.events.length > 0)
      // in one order everywhere: two transactions numbering the same subscriptions never wait on each other
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    if (work.length === 0) return 0;
    const write = async (trx: Kysely<Database>) => {
      const now = this.clock();
      const nowIso = new Date(now).toISOString();
      const giveUp = new Date(now + this.retryWindowMs()).toISOString();
      let count = 0;
      for (const { id, events: mine } of work) {
        // the counter's row lock orders the subscription's deliveries across transactions and servers
        const numbered = await trx.updateTable('sys_webhook').set((eb) => ({ last_seq: eb('last_seq', '+', mine.length) })).where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
        if (Number(numbered.numUpdatedRows) === 0) continue;
        const { last_seq: last } = await trx.selectFrom('sys_webhook').select('last_seq').where('id', '=', id).executeTakeFirstOrThrow();
        const first = Number(last) - mine.length + 1;
        const rows = mine.map(({ event, id: eventId }, index) => {
          const payload: WebhookPayload = { id: eventId, kind: event.kind, time: new Date(event.time).toISOString(), seq: first + index, tenantId, data: event.data };
          const body = JSON.stringify(payload);
          return {
            id: randomUUID(),
            create_by: 'webhook',
            create_time: nowIso,
            update_by: null,
            update_time: null,
            webhook_id: id,
            seq: first + index,
            event_kind: event.kind,
            body: body.length <= BODY_MAX ? body : JSON.stringify({ ...payload, data: { truncated: true } }),
            status: WebhookDeliveryStatus.pending,
            attempts: 0,
            next_attempt_time: nowIso,
            give_up_time: giveUp,
            last_status: null,
            last_error: null,
            delivered_time: null,
            tenant_id: tenantId,
          };
        });
        for (let i = 0; i < rows.length; i += 200) await trx.insertInto('sys_webhook_delivery').values(rows.slice(i, i + 200)).execute();
        count += rows.length;
      }
      return count;
    };
    const count = db.isTransaction ? await write(db) : await db.transaction().execute(write);
    if (count > 0) this.queued();
    return count;
  }
}
