import { crudPath, importInitialFields, importJobPath, translate, type ImportJob } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../access.ts';
import { OperationType } from '../audit-log.ts';
import { importDictionaryOptions } from '../dictionaries.ts';
import { AppError, refuse } from '../envelope.ts';
import { countUpload, tooManyUploads, uploadRoutes } from '../uploads.ts';
import { log } from './audit.ts';
import { openWorkbook, refusedRowsWorkbook, type SheetRow } from './excel.ts';
import { importJobsOf, type ImportJobRun } from './import-jobs.ts';
import { linkIdsOfLabels } from './links.ts';
import type { Query } from './query.ts';
import { contextOf, routeOptions, type CrudContext, type EntityRuntime, type Row } from './runtime.ts';
import { validateInput } from './values.ts';
import { afterStored, prepareRow, storeRows, type PreparedRow } from './writing.ts';

/** imported rows stored per transaction; between batches other requests get their turn */
const IMPORT_BATCH = 100;
/** rows checked between two turns of the event loop for other requests */
const IMPORT_ROWS_PER_TURN = 20;

/**
 * An import job's work: rows are checked one by one (a refused row is reported with its reason) and stored a
 * batch at a time, each batch one transaction; when a batch cannot be stored whole (a row taken meanwhile by
 * another caller), its rows are stored one by one. Stops before the next row once cancelled.
 */
async function importRows(rt: EntityRuntime, ctx: CrudContext, run: ImportJobRun, rows: AsyncIterable<SheetRow>, initial: Row, progress: () => Promise<void>): Promise<void> {
  const { app, db, table } = rt;
  const pending = new Map<string, Set<string>>();
  const report = run.report;
  let batch: Array<{ row: number; cells: Record<string, unknown>; prepared?: PreparedRow; message?: string }> = [];
  let seen = 0;
  const flush = async () => {
    const ready = batch.filter((b) => b.prepared);
    const storedOne = new Set<number>();
    try {
      await db.transaction().execute((trx) => storeRows(rt, ctx, trx, ready.map((b) => b.prepared as PreparedRow)));
      for (const b of ready) storedOne.add(b.row);
    } catch (error) {
      app.log.warn({ err: error, table }, 'import batch stored row by row');
      for (const b of ready) {
        try {
          await db.transaction().execute((trx) => storeRows(rt, ctx, trx, [b.prepared as PreparedRow]));
          storedOne.add(b.row);
        } catch {
          b.message = translate(ctx.lang, 'crud.importRowNotStored');
        }
      }
    }
    await afterStored(rt, ctx, ready.filter((b) => storedOne.has(b.row)).map((b) => b.prepared as PreparedRow));
    for (const b of batch) {
      if (b.prepared && storedOne.has(b.row)) {
        report.rows.push({ row: b.row, success: true, id: b.prepared.id });
        report.added++;
      } else {
        report.rows.push({ row: b.row, success: false, message: b.message ?? '' });
        run.refusedCells.set(b.row, b.cells);
        report.failed++;
      }
    }
    batch = [];
    await progress();
    await new Promise((resolve) => setImmediate(resolve));
  };
  for await (const { row, values } of rows) {
    if (run.cancelRequested) break;
    seen++;
    // as read, for the refused rows' spreadsheet (the checks below fill and translate the values in place)
    const cells = { ...values };
    try {
      for (const [name, value] of Object.entries(initial)) if (values[name] === undefined || values[name] === null || values[name] === '') values[name] = value;
      await linkIdsOfLabels(rt, ctx, values);
      batch.push({ row, cells, prepared: await prepareRow(rt, ctx, values, pending) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      batch.push({ row, cells, message: translate(ctx.lang, error.key, error.params) });
    }
    if (batch.length >= IMPORT_BATCH) await flush();
    else if (seen % IMPORT_ROWS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  // a cancelled job drops the rows checked but not yet stored: they were not imported
  if (!run.cancelRequested) {
    await flush();
    report.total = seen;
  }
}

/**
 * The initial values of write-only fields sent with an import (form fields before the file), validated like the
 * form; an invalid one refuses the whole import before any row is read.
 */
function initialValues(rt: EntityRuntime, ctx: CrudContext, parts: Record<string, unknown>): Row {
  const { app, entity } = rt;
  const given: Row = {};
  for (const name of importInitialFields(entity)) {
    const part = parts[name] as { type?: string; value?: unknown } | undefined;
    if (part?.type === 'field' && typeof part.value === 'string' && part.value !== '') given[name] = part.value;
  }
  const validated = validateInput(entity, given, 'edit', ctx.lang, app.settings.timeZone);
  if (!validated.ok) throw new AppError('badRequest', 'error.validation', { message: validated.message });
  return given;
}

/** The import of an entity that declares it: the upload that starts its job, the job's progress, its refused rows, cancelling it. */
export function importRoutes(rt: EntityRuntime, routes: FastifyInstance): void {
  const { app, entity, hooks } = rt;
  if (!rt.actions.has('import')) return;
  const jobs = importJobsOf(app);
  uploadRoutes(routes, (uploads) => {
    uploads.post(crudPath(entity, 'importExcel'), routeOptions(rt, 'import', `Import ${entity.name} from xlsx as a background job`), async (request, reply) => {
      const started = performance.now();
      const ctx = contextOf(rt, request);
      // a spreadsheet is an upload like any other: it counts against its user's files and bytes of the minute
      if (!(await countUpload(app, request, ctx.caller))) return tooManyUploads(app, request, reply);
      const file = request.isMultipart() ? await request.file() : undefined;
      if (!file) refuse('crud.importNoFile');
      const initial = initialValues(rt, ctx, file.fields);
      // the bounds, the header and the first row are checked here; the rows are read and stored by the job
      const workbook = await openWorkbook(entity, await file.toBuffer(), await importDictionaryOptions(app, ctx.lang), request.log);
      const run = await jobs.start(ctx.caller, entity.name, workbook.rowsAtMost, async (job, progress) => {
        try {
          await importRows(rt, ctx, job, workbook.rows, initial, progress);
        } finally {
          const { added, failed } = job.report;
          if (added > 0) await hooks.afterChange?.(ctx);
          await log(rt, ctx, OperationType.import, 'log.imported', { added, failed }, started);
        }
      });
      // `success` and `message` as the origin's clients read them; `result` is the job to follow
      const job: ImportJob = { jobId: run.id, state: run.state, done: 0, message: translate(ctx.lang, 'crud.importRunning', { total: run.report.total, done: 0, added: 0, failed: 0 }), ...run.report, rows: [] };
      return { ...reply.ok(job), message: translate(ctx.lang, 'crud.importStarted', { total: workbook.rowsAtMost }) };
    });
  });

  routes.get(importJobPath(entity, 'status'), routeOptions(rt, 'import', `An import of ${entity.name}: progress and result`), async (request, reply) => {
    const stored = await jobs.find(callerOf(request), entity.name, (request.query as Query).jobId);
    const job = await jobs.view(stored, request.lang);
    return { ...reply.ok(job), message: job.message };
  });

  routes.get(importJobPath(entity, 'refused'), routeOptions(rt, 'import', `The refused rows of an import of ${entity.name} as xlsx, with the reason of each`), async (request, reply) => {
    const stored = await jobs.find(callerOf(request), entity.name, (request.query as Query).jobId);
    const workbook = await refusedRowsWorkbook(entity, await jobs.refusedRows(stored.id), request.lang);
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${entity.name}-refused.xlsx"`)
      .send(workbook);
  });

  routes.put(importJobPath(entity, 'cancel'), routeOptions(rt, 'import', `Cancel an import of ${entity.name}`), async (request, reply) => {
    const caller = callerOf(request);
    const stored = await jobs.find(caller, entity.name, (request.body as Row | undefined)?.jobId);
    await jobs.cancel(stored);
    const job = await jobs.view(await jobs.find(caller, entity.name, stored.id), request.lang);
    return { ...reply.ok(job), message: job.message };
  });
}
