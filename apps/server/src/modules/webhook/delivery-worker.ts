import { WebhookDeliveryStatus } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database, SysWebhookDelivery } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { attemptDelivery, type AttemptOutcome } from './delivery.ts';

/** The retry waits after the n-th failed attempt, in units of the base wait (5 s: 5 s, 30 s, 2 min, 10 min, 30 min, then hourly). */
const BACKOFF_STEPS = [1, 6, 24, 120, 360, 720];

export function webhookBackoffMs(attempts: number, baseMs: number): number {
  return baseMs * (BACKOFF_STEPS[Math.min(Math.max(attempts, 1), BACKOFF_STEPS.length) - 1] as number);
}

export interface DeliveryWorkerOptions {
  db: Kysely<Database>;
  clock: Clock;
  secretBox: SecretBox;
  settings: () => { pollMs: number; retryBaseMs: number; timeoutMs: number };
  log: { error(obj: object, msg: string): void };
  /** subscriptions sent to at once by one server */
  parallel?: number;
}

/** A claimed attempt lapses this long after its deadline: another server may then try the delivery again. */
const CLAIM_MARGIN_MS = 30_000;

const text = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

/**
 * Sends the queued deliveries. Each subscription's deliveries go strictly in `seq` order: only its head (lowest seq not
 * yet delivered or failed) is ever sent, and the next only once it is settled. An attempt is claimed by a conditional
 * update of its attempt count, so two servers (or two rounds) never send the same attempt; a claim whose server died
 * lapses after the attempt's deadline and the delivery is tried again. Failed attempts wait longer each time; a
 * delivery not delivered before its give-up time is marked failed and the subscription's queue moves on.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(private readonly options: DeliveryWorkerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Something was queued: look at the queue now rather than at the next poll. */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.round(), 0);
    this.timer.unref();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.round(), this.options.settings().pollMs);
    this.timer.unref();
  }

  private round(): void {
    this.timer = null;
    if (this.running) return;
    this.running = this.sendDue()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'webhook deliveries failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.poke();
        } else this.schedule();
      });
  }

  /** One round: every subscription with a due delivery, a few at a time. Answers when all of them are done. */
  async sendDue(): Promise<void> {
    const now = new Date(this.options.clock()).toISOString();
    const due = await this.options.db
      .selectFrom('sys_webhook_delivery as d')
      .innerJoin('sys_webhook as w', 'w.id', 'd.webhook_id')
      .select('d.webhook_id')
      .distinct()
      .where('d.status', 'in', [WebhookDeliveryStatus.pending, WebhookDeliveryStatus.sending])
      .where('d.next_attempt_time', '<=', now)
      .where('w.enabled', '=', 1)
      .limit(200)
      .execute();
    const queue = due.map((d) => d.webhook_id);
    const workers = Array.from({ length: Math.min(this.options.parallel ?? 8, queue.length) }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await this.sendSubscription(id);
    });
    await Promise.all(workers);
  }

  /** Sends the subscription's deliveries in order while they are due and succeed (or run out of time). */
  private async sendSubscription(webhookId: string): Promise<void> {
    const { db, clock } = this.options;
    for (let sent = 0; sent < 100 && !this.stopped; sent++) {
      const head = await db
        .selectFrom('sys_webhook_delivery')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .where('status', 'in', [WebhookDeliveryStatus.pending, WebhookDeliveryStatus.sending])
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
      const nowMs = clock();
      if (!head || head.next_attempt_time === null || head.next_attempt_time > new Date(nowMs).toISOString()) return;
      const target = await db.selectFrom('sys_webhook').select(['url', 'secret', 'allow_loopback', 'enabled']).where('id', '=', webhookId).executeTakeFirst();
      if (!target || target.enabled !== 1) return;
      const claimed = await this.claim(head, nowMs);
      if (!claimed) return;
      let secret: string;
      try {
        secret = this.options.secretBox.decrypt(target.secret);
      } catch {
        secret = '';
      }
      const outcome: AttemptOutcome = secret
        ? await attemptDelivery({ url: target.url, secret, allowLoopback: target.allow_loopback === 1 }, { id: head.id, kind: head.event_kind, body: head.body }, clock(), this.options.settings().timeoutMs)
        : { ok: false, status: null, error: 'the stored secret cannot be read' };
      const settled = await this.settle(head, head.attempts + 1, outcome);
      if (!settled) return;
    }
  }

  /** Takes the head's next attempt for this server; false when another server (or round) took it first. */
  private async claim(head: SysWebhookDelivery, nowMs: number): Promise<boolean> {
    const lapses = new Date(nowMs + this.options.settings().timeoutMs + CLAIM_MARGIN_MS).toISOString();
    const result = await this.options.db
      .updateTable('sys_webhook_delivery')
      .set({ status: WebhookDeliveryStatus.sending, attempts: head.attempts + 1, next_attempt_time: lapses })
      .where('id', '=', head.id)
      .where('attempts', '=', head.attempts)
      .where('status', '=', head.status)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Writes how the attempt went; answers whether the queue may move on to the next delivery. */
  private async settle(head: SysWebhookDelivery, attempt: number, outcome: AttemptOutcome): Promise<boolean> {
    const { db, clock } = this.options;
    const nowMs = clock();
    const now = new Date(nowMs).toISOString();
    const givesUp = !outcome.ok && now >= head.give_up_time;
    const status = outcome.ok ? WebhookDeliveryStatus.delivered : givesUp ? WebhookDeliveryStatus.failed : WebhookDeliveryStatus.pending;
    const retry = new Date(nowMs + webhookBackoffMs(attempt, this.options.settings().retryBaseMs)).toISOString();
    // only the attempt this server claimed is settled by it (a lapsed claim taken over by another server is theirs)
    await db
      .updateTable('sys_webhook_delivery')
      .set({
        status,
        next_attempt_time: status === WebhookDeliveryStatus.pending ? retry : null,
        last_status: outcome.status,
        last_error: text(outcome.error, 500),
        delivered_time: outcome.ok ? now : null,
        update_time: now,
      })
      .where('id', '=', head.id)
      .where('attempts', '=', attempt)
      .where('status', '=', WebhookDeliveryStatus.sending)
      .execute();
    await db
      .updateTable('sys_webhook')
      .set({ last_status: outcome.ok ? 'delivered' : givesUp ? 'failed' : 'retrying', last_error: text(outcome.error, 500), last_time: now })
      .where('id', '=', head.webhook_id)
      .execute();
    return outcome.ok || givesUp;
  }
}
