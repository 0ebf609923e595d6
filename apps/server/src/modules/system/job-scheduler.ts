import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CRON_OPTIONS, JobStatus, type JobHandlerName } from '@isps/contract';
import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What a handler reports: a short result for the run history. */
type JobHandler = (app: FastifyInstance, parameter: string | null) => Promise<string>;

/** The registry of job handlers by class name; a job names one of these, never code of its own. */
export const jobHandlers: Record<JobHandlerName, JobHandler> = {
  cleanExpiredSessions: async (app) => {
    const result = await app.db.deleteFrom('sys_user_token').where('expires_at', '<=', new Date(app.clock()).toISOString()).executeTakeFirst();
    return `removed ${Number(result.numDeletedRows)} expired sessions`;
  },
  purgeOldLogs: async (app, parameter) => {
    const days = Number.parseInt(parameter ?? '', 10);
    const keep = Number.isFinite(days) && days > 0 ? Math.min(days, 3650) : 90;
    const before = new Date(app.clock() - keep * 86_400_000).toISOString();
    const result = await app.db.deleteFrom('sys_log').where('create_time', '<', before).executeTakeFirst();
    return `removed ${Number(result.numDeletedRows)} log entries older than ${keep} days`;
  },
  heartbeat: async () => 'alive',
  // the attendance module's: keeps the current month's days and statistics fresh
  attendanceMonth: async (app) => app.refreshAttendance(),
  // the report module's: mails a scheduled report (parameter: the schedule's id)
  reportSchedule: async (app, parameter) => app.sendScheduledReport(parameter),
};

export interface RunOutcome {
  /** false when another instance already holds this firing */
  ran: boolean;
  success?: boolean;
  message?: string;
}

const SYNC_INTERVAL_MS = 10_000;

/**
 * Runs the normal (started) jobs on their cron schedules in this server. Every instance schedules every job; a
 * firing runs where the insert of its run row succeeds (unique job and fire time), so it runs once in all.
 * Changes made through another instance are picked up within SYNC_INTERVAL_MS.
 */
export class JobScheduler {
  readonly instance = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly crons = new Map<string, { cron: Cron; signature: string }>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly app: FastifyInstance) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.sync();
    this.timer = setInterval(() => void this.sync().catch((error: unknown) => this.app.log.warn({ err: error }, 'job schedule sync failed')), SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const { cron } of this.crons.values()) cron.stop();
    this.crons.clear();
  }

  /** Brings this instance's schedules in line with the table: new and changed jobs (re)scheduled, others stopped. */
  async sync(): Promise<void> {
    if (this.stopped) return;
    const jobs = await this.app.db.selectFrom('sys_quartz_job').select(['id', 'cron_expression', 'status']).where('status', '=', JobStatus.normal).execute();
    const wanted = new Map(jobs.map((j) => [j.id, j.cron_expression]));
    for (const [id, entry] of this.crons) {
      if (wanted.get(id) !== entry.signature) {
        entry.cron.stop();
        this.crons.delete(id);
      }
    }
    for (const [id, expression] of wanted) {
      if (this.crons.has(id)) continue;
      try {
        const cron = new Cron(expression, { ...CRON_OPTIONS, unref: true, protect: true }, (self: Cron) => {
          // the scheduled time of this firing (not the moment the timer woke), the same on every instance
          const fired = self.previousRuns(1, new Date(Date.now() + 500))[0] ?? new Date();
          void this.fire(id, fired).catch((error: unknown) => this.app.log.error({ err: error, job: id }, 'scheduled job failed'));
        });
        this.crons.set(id, { cron, signature: expression });
      } catch (error) {
        this.app.log.warn({ err: error, job: id }, 'a stored cron expression is not valid; the job is not scheduled');
      }
    }
  }

  /**
   * One firing of a job at `fireTime` (to the second): claims it by inserting the run row, then runs the handler
   * and stores how it went. A manual run has a fire time of its own and always runs.
   */
  /** The first millisecond from `from` on with no run of the job (runs by hand never take a scheduled second's lease). */
  private async freeManualTime(jobId: string, from: number): Promise<string> {
    const taken = new Set(
      (await this.app.db.selectFrom('sys_quartz_job_log').select('fire_time').where('job_id', '=', jobId).where('fire_time', '>=', new Date(from).toISOString()).execute()).map((r) => r.fire_time),
    );
    let at = from;
    while (at % 1000 === 0 || taken.has(new Date(at).toISOString())) at++;
    return new Date(at).toISOString();
  }

  async fire(jobId: string, fireTime: Date, manual = false): Promise<RunOutcome> {
    const job = await this.app.db.selectFrom('sys_quartz_job').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (!job || (!manual && job.status !== JobStatus.normal)) return { ran: false };
    const runId = randomUUID();
    // a scheduled firing is its second (the lease between instances); a run by hand takes the next free millisecond
    const scheduledAt = Math.floor(fireTime.getTime() / 1000) * 1000;
    const fireAt = manual ? await this.freeManualTime(jobId, fireTime.getTime()) : new Date(scheduledAt).toISOString();
    try {
      await this.app.db
        .insertInto('sys_quartz_job_log')
        .values({
          id: runId,
          job_id: jobId,
          fire_time: fireAt,
          manual: manual ? 1 : 0,
          cost_ms: null,
          success: null,
          message: null,
          instance: this.instance,
          create_by: manual ? 'manual' : 'scheduler',
          create_time: new Date(this.app.clock()).toISOString(),
          update_by: null,
          update_time: null,
        })
        .execute();
    } catch {
      // the unique (job, fire time) is taken: another instance runs this firing
      return { ran: false };
    }
    const started = performance.now();
    let success = true;
    let message: string;
    try {
      const handler = jobHandlers[job.job_class_name as JobHandlerName];
      if (!handler) throw new Error(`no handler ${job.job_class_name}`);
      message = await handler(this.app, job.parameter);
    } catch (error) {
      success = false;
      message = error instanceof Error ? error.message : String(error);
    }
    await this.app.db
      .updateTable('sys_quartz_job_log')
      .set({ cost_ms: Math.round(performance.now() - started), success: success ? 1 : 0, message: message.slice(0, 1000), update_time: new Date(this.app.clock()).toISOString() })
      .where('id', '=', runId)
      .execute();
    return { ran: true, success, message };
  }

  /** Whether this instance has the job on its schedule (tests, monitoring). */
  isScheduled(jobId: string): boolean {
    return this.crons.has(jobId);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    jobScheduler: JobScheduler;
  }
}

/** One scheduler per server, started when the server is ready and stopped when it closes. */
export const jobSchedulerPlugin = fp(async (app) => {
  const scheduler = new JobScheduler(app);
  app.decorate('jobScheduler', scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());
});
