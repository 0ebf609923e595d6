import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

type Write<T> = (db: Kysely<Database>) => Promise<T>;

interface Waiting {
  write: Write<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Small device writes (a hello's device row and online flag, heartbeats, presence, acknowledgements) share one
 * transaction: with SQLite's synchronous=FULL every commit waits for the disk and holds the event loop, so a
 * thousand devices saying hello at once would each pay a commit; here they pay a few. One transaction runs at a
 * time; writes arriving meanwhile form the next one. Each write is a single statement on the handle it is given and
 * answers its own result. Should the shared transaction fail, its writes are run again one by one, so one bad write
 * fails alone.
 */
export class GroupCommit {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = 1000,
  ) {}

  run<T>(write: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // the writes of this turn of the event loop (and those coming while a transaction runs) go together
      this.running = this.running.then(() => new Promise<void>((next) => setImmediate(next))).then(() => this.commit());
    });
  }

  private async commit(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting.splice(0, this.maxBatch);
    if (this.waiting.length > 0) {
      this.scheduled = true;
      this.running = this.running.then(() => this.commit());
    }
    if (batch.length === 1) return this.alone(batch[0]!);
    let results: unknown[];
    try {
      results = await this.db.transaction().execute(async (trx) => {
        const answers: unknown[] = [];
        for (const { write } of batch) answers.push(await write(trx));
        return answers;
      });
    } catch {
      for (const waiting of batch) await this.alone(waiting);
      return;
    }
    batch.forEach((waiting, i) => waiting.resolve(results[i]));
  }

  private async alone({ write, resolve, reject }: Waiting): Promise<void> {
    await write(this.db).then(resolve, reject);
  }
}
