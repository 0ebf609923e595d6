import type { EntityDeclaration, ImportReport } from './declaration.ts';

/**
 * An import runs as a background job. POST …/importExcel checks the file (size, rows, columns) and the initial
 * values, then answers at once with the job (`state: 'running'`, `message` 'crud.importStarted'); the origin's
 * clients read `success` and `message` of that answer as before. The job's progress is read with
 * GET …/importJob?jobId= and pushed over the real-time channel (`RealtimeCmd.importJob`, data `ImportJobProgress`);
 * PUT …/importJob/cancel `{ jobId }` stops it after the batch under way (rows already stored stay). Only the
 * caller who started it, or a system administrator working in its tenant, sees or cancels a job; GET …/importJob/refused?jobId=
 * answers its refused rows as an xlsx (their values as read and a reason column); a finished job's
 * result is kept for `IMPORT_JOB_KEPT_MS`.
 */
export const ImportJobState = { running: 'running', done: 'done', cancelled: 'cancelled', failed: 'failed' } as const;
export type ImportJobState = (typeof ImportJobState)[keyof typeof ImportJobState];

/** `rows` (each row's outcome) is filled once the job has ended; while it runs it is empty and the counts tell. */
export interface ImportJob extends ImportReport {
  jobId: string;
  state: ImportJobState;
  /** rows handled so far (added + failed) of `total` */
  done: number;
  /** where the job stands, in the reader's language */
  message: string;
}

/** What the real-time channel pushes while a job runs and once it ends: counts only, no rows, no text. */
export type ImportJobProgress = Pick<ImportJob, 'jobId' | 'state' | 'total' | 'done' | 'added' | 'failed'> & { entity: string };

/** How long a finished job's result stays readable. */
export const IMPORT_JOB_KEPT_MS = 30 * 60 * 1000;

export const ImportJobVerb = { status: '/importJob', cancel: '/importJob/cancel', refused: '/importJob/refused' } as const;

export function importJobPath(entity: Pick<EntityDeclaration, 'basePath'>, verb: keyof typeof ImportJobVerb): string {
  return entity.basePath + ImportJobVerb[verb];
}

export function isImportJob(value: unknown): value is ImportJob {
  return typeof value === 'object' && value !== null && typeof (value as ImportJob).jobId === 'string' && typeof (value as ImportJob).state === 'string';
}
