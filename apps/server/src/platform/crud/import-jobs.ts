import { randomUUID } from 'node:crypto';
import {
  IMPORT_JOB_KEPT_MS,
  ImportJobState,
  RealtimeCmd,
  translate,
  type ImportJob,
  type ImportJobProgress,
  type ImportReport,
  type Language,
  type MessageKey,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysImportJob } from '../../db/schema.ts';
import type { CurrentUser } from '../access.ts';
import { AppError } from '../envelope.ts';

/** Progress is pushed at most this often while a job runs (and always when it ends). */
const PUSH_EVERY_MS = 250;
/** The instance running a job says so this often, besides every batch it stores. */
const HEARTBEAT_EVERY_MS = 10_000;
/** A running job whose instance has not said so for this long was left by a process that is gone. */
const HEARTBEAT_LOST_MS = 60_000;
const INTERRUPTED: MessageKey = 'crud.importInterrupted';
/** outcome rows written per statement (five parameters each, well within every engine's limit) */
const OUTCOMES_PER_INSERT = 200;

/** One import under way, as the runner on this instance sees it. */
export interface ImportJobRun {
  readonly id: string;
  readonly entity: string;
  readonly ownerId: string;
  readonly tenantId: string | null;
  state: ImportJobState;
  report: ImportReport;
  /** set by a cancel call (here, or on another instance: read back with each batch); the runner stops before its next row */
  cancelRequested: boolean;
  /** the values of refused rows as read, by row number, until they are stored with their outcome */
  refusedCells: Map<number, Record<string, unknown>>;
}

/** A job as stored: what every instance reads. */
export type StoredImportJob = Selectable<SysImportJob>;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The import jobs of the console, kept in the database (DESIGN section 9): each runs in the background of the instance
 * that took its upload, writes its counts and row outcomes batch by batch, reports over the real-time channel, and is
 * readable from any instance, after a restart too, for IMPORT_JOB_KEPT_MS after it ends. A job whose instance died is
 * marked interrupted. A job's rows are stored batch by batch, each batch one transaction, so whatever stops a job
 * leaves only whole rows behind.
 */
export class ImportJobs {
  private readonly local = new Map<string, { run: ImportJobRun; ended: Promise<void>; lastPush: number; written: number }>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly app: FastifyInstance) {
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_EVERY_MS);
    this.heartbeat.unref();
  }

  /**
   * Stores the caller's job and starts `work`, answering once the job is stored. `work` adds to `run.report`, awaits
   * `progress()` after each batch and returns when the rows are done or `run.cancelRequested` is set; a throw stops
   * the job ('failed').
   */
  async start(caller: CurrentUser, entity: string, total: number, work: (run: ImportJobRun, progress: () => Promise<void>) => Promise<void>): Promise<ImportJobRun> {
    await this.prune();
    const now = this.app.clock();
    const run: ImportJobRun = {
      id: randomUUID(),
      entity,
      ownerId: caller.id,
      // a system administrator working in a tenant imports into it: that tenant's administrators may follow the job
      tenantId: caller.tenantScope ?? caller.tenantId,
      state: ImportJobState.running,
      report: { total, added: 0, failed: 0, rows: [] },
      cancelRequested: false,
      refusedCells: new Map(),
    };
    await this.app.db
      .insertInto('sys_import_job')
      .values({
        id: run.id,
        tenant_id: run.tenantId,
        owner_id: run.ownerId,
        entity,
        state: run.state,
        total,
        added: 0,
        failed: 0,
        cancel_requested: 0,
        heartbeat_at: iso(now),
        finished_at: null,
        reason: null,
        create_by: caller.username,
        create_time: iso(now),
        update_by: null,
        update_time: null,
      })
      .execute();
    const entry = { run, ended: Promise.resolve(), lastPush: 0, written: 0 };
    const progress = async () => {
      await this.write(entry);
      const now = Date.now();
      if (now - entry.lastPush < PUSH_EVERY_MS) return;
      entry.lastPush = now;
      this.push(run);
    };
    entry.ended = (async () => {
      // the answer to the upload goes out before the first row is read
      await new Promise((resolve) => setImmediate(resolve));
      try {
        await work(run, progress);
        run.state = run.cancelRequested ? ImportJobState.cancelled : ImportJobState.done;
      } catch (error) {
        this.app.log.error({ err: error, jobId: run.id, entity }, 'import job stopped');
        run.state = ImportJobState.failed;
      }
      try {
        await this.write(entry, true);
      } catch (error) {
        // the next start (or a status read, once the heartbeat is old) reads it as interrupted
        this.app.log.error({ err: error, jobId: run.id }, 'import job end not stored');
      }
      this.local.delete(run.id);
      this.push(run);
    })();
    this.local.set(run.id, entry);
    return run;
  }

  /** The stored job if the caller may see it: the one who started it, or a system administrator in its tenant. */
  async find(caller: CurrentUser, entity: string, jobId: unknown): Promise<StoredImportJob> {
    const job = typeof jobId === 'string' && jobId.length <= 36 ? await this.app.db.selectFrom('sys_import_job').selectAll().where('id', '=', jobId).executeTakeFirst() : undefined;
    const mayRead = job && job.entity === entity && (job.owner_id === caller.id || (caller.systemAdmin && job.tenant_id === (caller.tenantScope ?? caller.tenantId)));
    if (!job || !mayRead || this.expired(job)) throw new AppError('notFound', 'crud.importJobMissing');
    if (job.state === ImportJobState.running && !this.local.has(job.id) && this.lost(job)) {
      await this.markInterrupted(job.id);
      return (await this.app.db.selectFrom('sys_import_job').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow()) as StoredImportJob;
    }
    return job;
  }

  /** Asks the job to stop after the row under way, wherever it runs; rows already stored stay. Waits when it runs here. */
  async cancel(job: StoredImportJob): Promise<void> {
    if (job.state !== ImportJobState.running) return;
    const here = this.local.get(job.id);
    if (here) {
      here.run.cancelRequested = true;
      await here.ended;
      return;
    }
    await this.app.db.updateTable('sys_import_job').set({ cancel_requested: 1 }).where('id', '=', job.id).where('state', '=', ImportJobState.running).execute();
  }

  /** Resolves once the job has ended, when it runs here (tests, shutdown). */
  async ended(jobId: string): Promise<void> {
    await this.local.get(jobId)?.ended;
  }

  /** Stops every job running here and waits for them (the server is closing). */
  async stopAll(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const { run } of this.local.values()) run.cancelRequested = true;
    await Promise.all([...this.local.values()].map((j) => j.ended));
  }

  /** Marks the jobs left running by processes that are gone (their heartbeat stopped) as interrupted (at start). */
  async interruptLost(): Promise<void> {
    const before = iso(this.app.clock() - HEARTBEAT_LOST_MS);
    const lost = await this.app.db.selectFrom('sys_import_job').select('id').where('state', '=', ImportJobState.running).where('heartbeat_at', '<', before).execute();
    for (const { id } of lost) if (!this.local.has(id)) await this.markInterrupted(id);
  }

  /** The job as its status call answers it, in `lang`: counts while it runs, every row's outcome once it ended. */
  async view(job: StoredImportJob, lang: Language): Promise<ImportJob> {
    const { total, added, failed } = job;
    const done = added + failed;
    const params = { total, done, added, failed };
    const state = job.state as ImportJobState;
    const key: MessageKey =
      state === ImportJobState.running
        ? 'crud.importRunning'
        : state === ImportJobState.done
          ? 'crud.importDone'
          : state === ImportJobState.cancelled
            ? 'crud.importCancelled'
            : job.reason === INTERRUPTED
              ? INTERRUPTED
              : 'crud.importStopped';
    // the rows come with the ended job: a progress call stays small however large the file
    const rows = state === ImportJobState.running ? [] : await this.outcomes(job.id);
    return { jobId: job.id, state, done, message: translate(lang, key, params), total, added, failed, rows };
  }

  /** Every row's outcome of a job, in spreadsheet order. */
  async outcomes(jobId: string, refusedOnly = false): Promise<ImportReport['rows']> {
    let query = this.app.db.selectFrom('sys_import_job_row').select(['row_no', 'success', 'ref_id', 'message']).where('job_id', '=', jobId);
    if (refusedOnly) query = query.where('success', '=', 0);
    const rows = await query.orderBy('row_no').execute();
    return rows.map((r) => (Number(r.success) === 1 ? { row: Number(r.row_no), success: true as const, id: r.ref_id ?? '' } : { row: Number(r.row_no), success: false as const, message: r.message ?? '' }));
  }

  /** The refused rows of a job: their number, their values as read and why each was refused. */
  async refusedRows(jobId: string): Promise<Array<{ row: number; cells: Record<string, unknown>; message: string }>> {
    const rows = await this.app.db.selectFrom('sys_import_job_row').select(['row_no', 'cells', 'message']).where('job_id', '=', jobId).where('success', '=', 0).orderBy('row_no').execute();
    return rows.map((r) => ({ row: Number(r.row_no), cells: r.cells ? (JSON.parse(r.cells) as Record<string, unknown>) : {}, message: r.message ?? '' }));
  }

  /** Writes the outcomes added since the last write, the counts and the heartbeat; reads back a cancel asked elsewhere. */
  private async write(entry: { run: ImportJobRun; written: number }, ended = false): Promise<void> {
    const { run } = entry;
    const fresh = run.report.rows.slice(entry.written);
    const now = iso(this.app.clock());
    await this.app.db.transaction().execute(async (trx) => {
      for (let from = 0; from < fresh.length; from += OUTCOMES_PER_INSERT) {
        const values = fresh.slice(from, from + OUTCOMES_PER_INSERT).map((r) => ({
          job_id: run.id,
          row_no: r.row,
          success: r.success ? 1 : 0,
          ref_id: r.success ? r.id : null,
          message: r.success ? null : r.message,
          cells: r.success ? null : JSON.stringify(run.refusedCells.get(r.row) ?? {}),
        }));
        await trx.insertInto('sys_import_job_row').values(values).execute();
      }
      const { total, added, failed } = run.report;
      await trx
        .updateTable('sys_import_job')
        .set({ total, added, failed, heartbeat_at: now, update_time: now, ...(ended ? { state: run.state, finished_at: now } : {}) })
        .where('id', '=', run.id)
        .execute();
    });
    entry.written += fresh.length;
    for (const r of fresh) if (!r.success) run.refusedCells.delete(r.row);
    if (!ended && !run.cancelRequested) {
      const asked = await this.app.db.selectFrom('sys_import_job').select('cancel_requested').where('id', '=', run.id).executeTakeFirst();
      if (Number(asked?.cancel_requested) === 1) run.cancelRequested = true;
    }
  }

  /** Tells the database that the jobs running here are alive (a batch can take a while on a busy database). */
  private async beat(): Promise<void> {
    const ids = [...this.local.keys()];
    if (ids.length === 0) return;
    try {
      await this.app.db.updateTable('sys_import_job').set({ heartbeat_at: iso(this.app.clock()) }).where('id', 'in', ids).where('state', '=', ImportJobState.running).execute();
    } catch (error) {
      this.app.log.warn({ err: error }, 'import job heartbeat not stored');
    }
  }

  private async markInterrupted(id: string): Promise<void> {
    const now = iso(this.app.clock());
    await this.app.db
      .updateTable('sys_import_job')
      .set({ state: ImportJobState.failed, reason: INTERRUPTED, finished_at: now, update_time: now })
      .where('id', '=', id)
      .where('state', '=', ImportJobState.running)
      .execute();
  }

  private lost(job: StoredImportJob): boolean {
    return Date.parse(job.heartbeat_at) < this.app.clock() - HEARTBEAT_LOST_MS;
  }

  private expired(job: StoredImportJob): boolean {
    return job.finished_at !== null && this.app.clock() - Date.parse(job.finished_at) > IMPORT_JOB_KEPT_MS;
  }

  private push(run: ImportJobRun): void {
    const { total, added, failed } = run.report;
    const data: ImportJobProgress = { jobId: run.id, entity: run.entity, state: run.state, total, done: added + failed, added, failed };
    this.app.realtime.sendToUser(run.ownerId, { cmd: RealtimeCmd.importJob, msgId: run.id, data }).catch((error: unknown) => this.app.log.warn({ err: error }, 'import progress not pushed'));
  }

  /** Finished jobs older than IMPORT_JOB_KEPT_MS leave with their outcomes. */
  private async prune(): Promise<void> {
    const before = iso(this.app.clock() - IMPORT_JOB_KEPT_MS);
    const old = await this.app.db.selectFrom('sys_import_job').select('id').where('finished_at', '<', before).limit(100).execute();
    if (old.length === 0) return;
    const ids = old.map((j) => j.id);
    await this.app.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_import_job_row').where('job_id', 'in', ids).execute();
      await trx.deleteFrom('sys_import_job').where('id', 'in', ids).execute();
    });
  }
}

const stores = new WeakMap<FastifyInstance, ImportJobs>();

/** The job store of a server (one per Fastify instance): marks lost jobs interrupted once ready, stopped when it closes. */
export function importJobsOf(app: FastifyInstance): ImportJobs {
  let store = stores.get(app);
  if (!store) {
    const created = new ImportJobs(app);
    stores.set(app, (store = created));
    app.addHook('onReady', async () => created.interruptLost());
    app.addHook('onClose', async () => created.stopAll());
  }
  return store;
}
