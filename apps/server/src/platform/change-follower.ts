import type { Kysely } from 'kysely';
import { onCommittedWrite } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

export interface ChangeFollowerOptions {
  db: Kysely<Database>;
  log: { error(obj: object, msg: string): void };
  /** what a failure is logged as ('cabinet sync failed') */
  name: string;
  /** a committed write to one of these tables schedules `reconcile` */
  watched: ReadonlySet<string>;
  /** compares what should be with what was sent, and sends the difference */
  reconcile: () => Promise<void>;
  /** how long after the first of several writes `reconcile` runs (ms, default 20) */
  debounceMs?: number;
  /** whether `start` schedules a pass for what a stop left unsent (default true) */
  passOnStart?: boolean;
}

/**
 * Follows committed writes to some tables for a device sync (access lists, cabinets, keys): each write schedules one
 * `reconcile` after a short debounce, so a burst of writes costs one; and every piece of the sync's work (`run`) runs
 * one after another in order, so two never interleave their reads and sends. A failure is logged and the next piece
 * runs. `stop` ends the following and waits for the work under way.
 */
export class ChangeFollower {
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => void) | null = null;
  private stopped = false;
  private working = 0;

  constructor(private readonly options: ChangeFollowerOptions) {}

  /** Follows writes from now on, and schedules one pass for what a stop left unsent. */
  start(): void {
    this.stopped = false;
    this.stopListening = onCommittedWrite(this.options.db, (tables) => {
      for (const table of tables) {
        if (this.options.watched.has(table)) return this.schedule();
      }
    });
    if (this.options.passOnStart !== false) this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    this.stopListening = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Whether pieces of work are queued or running. */
  get running(): boolean {
    return this.working > 0;
  }

  /** A change happened: `reconcile` runs after the debounce window (once for every change until then). */
  schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run(this.options.reconcile);
    }, this.options.debounceMs ?? 20);
  }

  /** Resolves once the changes seen so far are reconciled (tests, benchmarks). */
  async settled(): Promise<void> {
    while (this.timer) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.chain;
  }

  /** Runs `work` after the work queued before it; resolves when it ended (a failure is logged, not thrown). */
  run(work: () => Promise<void>): Promise<void> {
    this.working += 1;
    const next = this.chain
      .then(work)
      .finally(() => (this.working -= 1))
      .catch((error: unknown) => this.options.log.error({ err: error }, this.options.name));
    this.chain = next;
    return next;
  }
}

/**
 * A device sync that follows writes (cabinets, keys, door schedules): it owns its ChangeFollower, whose passes run
 * `reconcile`, and is started, stopped and waited for through it.
 */
export abstract class FollowedSync {
  protected readonly follower: ChangeFollower;

  constructor(options: Omit<ChangeFollowerOptions, 'reconcile'>) {
    this.follower = new ChangeFollower({ ...options, reconcile: () => this.reconcile() });
  }

  /** compares what each device should hold with what it was sent, and queues the difference */
  protected abstract reconcile(): Promise<void>;

  start(): void {
    this.follower.start();
  }

  stop(): Promise<void> {
    return this.follower.stop();
  }

  /** Resolves once the changes seen so far are queued to the devices (tests). */
  settled(): Promise<void> {
    return this.follower.settled();
  }
}
