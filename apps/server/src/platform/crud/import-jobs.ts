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
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { CurrentUser } from '../access.ts';
import { AppError } from '../envelope.ts';

/** Progress is pushed at most this often while a job runs (and always when it ends). */
const PUSH_EVERY_MS = 250;

/** One import under way or finished, as the runner and the routes see it. */
export interface ImportJobRun {
  readonly id: string;
  readonly entity: string;
  readonly ownerId: string;
  readonly tenantId: string | null;
  state: ImportJobState;
  report: ImportReport;
  /** set by a cancel call; the runner stops before its next row */
  cancelRequested: boolean;
  finishedAt: number | null;
}

/**
 * The import jobs of one server: each runs in the background of the instance that took its upload, reports its
 * counts over the real-time channel and stays readable for IMPORT_JOB_KEPT_MS after it ends. A job's rows are
 * stored batch by batch, each batch one transaction, so whatever stops a job leaves only whole rows behind.
 */
export class ImportJobs {
  private readonly jobs = new Map<string, { run: ImportJobRun; ended: Promise<void>; lastPush: number }>();

  constructor(private readonly app: FastifyInstance) {}

  /**
   * Starts `work` as the caller's job and answers at once. `work` adds to `run.report`, calls `progress()` after
   * each batch and returns when the rows are done or `run.cancelRequested` is set; a throw stops the job ('failed').
   */
  start(caller: CurrentUser, entity: string, total: number, work: (run: ImportJobRun, progress: () => void) => Promise<void>): ImportJobRun {
    this.prune();
    const run: ImportJobRun = {
      id: randomUUID(),
      entity,
      ownerId: caller.id,
      // a system administrator working in a tenant imports into it: that tenant's administrators may follow the job
      tenantId: caller.tenantScope ?? caller.tenantId,
      state: ImportJobState.running,
      report: { total, added: 0, failed: 0, rows: [] },
      cancelRequested: false,
      finishedAt: null,
    };
    const entry = { run, ended: Promise.resolve(), lastPush: 0 };
    const progress = () => {
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
      run.finishedAt = this.app.clock();
      this.push(run);
    })();
    this.jobs.set(run.id, entry);
    return run;
  }

  /** The job if the caller may see it: the one who started it, or a system administrator in its tenant. */
  find(caller: CurrentUser, entity: string, jobId: unknown): ImportJobRun {
    this.prune();
    const run = typeof jobId === 'string' ? this.jobs.get(jobId)?.run : undefined;
    const mayRead = run && run.entity === entity && (run.ownerId === caller.id || (caller.systemAdmin && run.tenantId === (caller.tenantScope ?? caller.tenantId)));
    if (!run || !mayRead) throw new AppError('notFound', 'crud.importJobMissing');
    return run;
  }

  /** Asks the job to stop after the row under way; rows already stored stay. */
  cancel(run: ImportJobRun): void {
    if (run.state === ImportJobState.running) run.cancelRequested = true;
  }

  /** Resolves once the job has ended (tests, shutdown). */
  async ended(run: ImportJobRun): Promise<void> {
    await this.jobs.get(run.id)?.ended;
  }

  /** Stops every running job and waits for them (the server is closing). */
  async stopAll(): Promise<void> {
    for (const { run } of this.jobs.values()) this.cancel(run);
    await Promise.all([...this.jobs.values()].map((j) => j.ended));
  }

  /** The job as its status call answers it, in `lang`: counts while it runs, every row's outcome once it ended. */
  view(run: ImportJobRun, lang: Language): ImportJob {
    const { total, added, failed } = run.report;
    const done = added + failed;
    const params = { total, done, added, failed };
    const message =
      run.state === ImportJobState.running
        ? translate(lang, 'crud.importRunning', params)
        : run.state === ImportJobState.done
          ? translate(lang, 'crud.importDone', params)
          : run.state === ImportJobState.cancelled
            ? translate(lang, 'crud.importCancelled', params)
            : translate(lang, 'crud.importStopped', params);
    // the rows come with the ended job: a progress call stays small however large the file
    return { jobId: run.id, state: run.state, done, message, ...run.report, rows: run.state === ImportJobState.running ? [] : run.report.rows };
  }

  private push(run: ImportJobRun): void {
    const { total, added, failed } = run.report;
    const data: ImportJobProgress = { jobId: run.id, entity: run.entity, state: run.state, total, done: added + failed, added, failed };
    this.app.realtime.sendToUser(run.ownerId, { cmd: RealtimeCmd.importJob, msgId: run.id, data }).catch((error: unknown) => this.app.log.warn({ err: error }, 'import progress not pushed'));
  }

  private prune(): void {
    const now = this.app.clock();
    for (const [id, { run }] of this.jobs) if (run.finishedAt !== null && now - run.finishedAt > IMPORT_JOB_KEPT_MS) this.jobs.delete(id);
  }
}

const stores = new WeakMap<FastifyInstance, ImportJobs>();

/** The job store of a server (one per Fastify instance, stopped when it closes). */
export function importJobsOf(app: FastifyInstance): ImportJobs {
  let store = stores.get(app);
  if (!store) {
    const created = new ImportJobs(app);
    stores.set(app, (store = created));
    app.addHook('onClose', async () => created.stopAll());
  }
  return store;
}
