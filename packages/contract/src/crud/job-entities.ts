import { CronPattern } from 'croner';
import * as z from 'zod';
import type { EntityDeclaration } from './declaration.ts';
import { field, textSchema } from './fields.ts';

/** Job handlers the server holds, by class name (SPEC section 2: scheduled jobs run registered handlers). */
export const JOB_HANDLERS = [
  { value: 'cleanExpiredSessions', label: 'quartzJob.handler.cleanExpiredSessions' },
  { value: 'purgeOldLogs', label: 'quartzJob.handler.purgeOldLogs' },
  { value: 'heartbeat', label: 'quartzJob.handler.heartbeat' },
  { value: 'attendanceMonth', label: 'quartzJob.handler.attendanceMonth' },
  { value: 'reportSchedule', label: 'quartzJob.handler.reportSchedule' },
] as const;
export type JobHandlerName = (typeof JOB_HANDLERS)[number]['value'];
/** The handlers this server runs, of those above (`QuartzJobPath.handlers`). */
const JOB_HANDLERS_PATH = '/sys/quartzJob/handlers';

/** SPEC section 4: a scheduled job is normal (running) or stopped. */
export const JobStatus = { normal: 0, stopped: -1 } as const;

/**
 * Cron expressions as the origin console writes them (Quartz): seconds first, 6 or 7 fields, '?' allowed, steps
 * such as 0/5, weekdays 1 (Sunday) to 7. The server schedules with the very same options.
 */
export const CRON_OPTIONS = { mode: '6-or-7-parts', sloppyRanges: true, alternativeWeekdays: true } as const;

export function isValidCron(expression: string): boolean {
  try {
    new CronPattern(expression.trim(), undefined, CRON_OPTIONS);
    return true;
  } catch {
    return false;
  }
}

export const cronSchema = z.string().trim().min(1).max(120).refine(isValidCron, { error: 'validation.cron' });

export const quartzJobEntity: EntityDeclaration = {
  name: 'quartzJob',
  title: 'quartzJob.title',
  basePath: '/sys/quartzJob',
  permissionPrefix: 'system:quartzJob',
  component: 'system/quartzJob',
  labelField: 'jobClassName',
  fields: {
    jobClassName: {
      label: 'quartzJob.field.jobClassName',
      kind: 'string',
      schema: z.enum(JOB_HANDLERS.map((h) => h.value) as [JobHandlerName, ...JobHandlerName[]], { error: 'validation.invalid' }),
      widget: { kind: 'options', options: JOB_HANDLERS },
      optionsFrom: JOB_HANDLERS_PATH,
      required: true,
    },
    cronExpression: { label: 'quartzJob.field.cronExpression', kind: 'string', schema: cronSchema, widget: { kind: 'cron' }, required: true },
    parameter: field.text('quartzJob.field.parameter', 500, { widget: { kind: 'input' } }),
    description: field.text('quartzJob.field.description', 255),
    status: field.dictInteger('quartzJob.field.status', 'job_status', { readOnly: true, defaultValue: JobStatus.stopped }),
  },
  columns: ['jobClassName', 'cronExpression', 'parameter', 'description', 'status'],
  search: { jobClassName: 'exact', status: 'exact', description: 'contains' },
  sortable: ['jobClassName', 'status', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'jobClassName', message: 'duplicate.jobClassName' }],
  extraActions: ['pause', 'resume', 'execute'],
};

/** One run of a scheduled job: when it fired, how long it took, and how it ended. */
export const jobLogEntity: EntityDeclaration = {
  name: 'jobLog',
  title: 'jobLog.title',
  basePath: '/sys/quartzJob/log',
  permissionPrefix: 'system:quartzJob',
  component: 'system/quartzJobLog',
  labelField: 'fireTime',
  fields: {
    jobId: { label: 'jobLog.field.jobId', kind: 'string', schema: textSchema(64), widget: { kind: 'input' }, references: { entity: 'quartzJob' } },
    fireTime: field.datetime('jobLog.field.fireTime'),
    manual: field.dictInteger('jobLog.field.manual', 'yn'),
    costMs: field.integer('jobLog.field.costMs', 0, 2_000_000_000),
    success: field.dictInteger('jobLog.field.success', 'yn'),
    message: field.text('jobLog.field.message', 1000),
    instance: field.text('jobLog.field.instance', 100),
  },
  columns: ['fireTime', 'manual', 'costMs', 'success', 'message', 'instance'],
  search: { jobId: 'exact', success: 'exact', fireTime: 'range' },
  sortable: ['fireTime', 'costMs'],
  defaultSort: { field: 'fireTime', order: 'desc' },
  actions: ['list', 'export'],
};

/** Calls of the scheduled jobs screen beyond the generic ones (GET ?id=, as the origin console calls them). */
export const QuartzJobPath = {
  pause: '/sys/quartzJob/pause',
  resume: '/sys/quartzJob/resume',
  execute: '/sys/quartzJob/execute',
  /** GET: the job handlers this server runs, for the job form's pick: `ServerOption[]` in the reader's language */
  handlers: JOB_HANDLERS_PATH,
} as const;

/** One choice the server offers a form: the stored value and its text in the reader's language. */
export interface ServerOption {
  value: string;
  text: string;
}
