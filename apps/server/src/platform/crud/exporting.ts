import { PassThrough, pipeline } from 'node:stream';
import { crudPath } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { OperationType } from '../audit-log.ts';
import { toWire } from '../wire-time.ts';
import { answeredRows } from './answered-rows.ts';
import { log } from './audit.ts';
import { linesOf } from './details.ts';
import { streamWorkbook } from './excel.ts';
import { sortOf, type Query } from './query.ts';
import { listRows } from './reading.ts';
import { contextOf, routeOptions, type EntityRuntime } from './runtime.ts';

const EXPORT_PAGE = 200;
const MAX_EXPORT_ROWS = 50_000;

/** The list's rows with its filters and sort as a streamed xlsx, for an entity that declares the export. */
export function exportRoute(rt: EntityRuntime, routes: FastifyInstance): void {
  const { app, entity, perm } = rt;
  if (!rt.actions.has('export')) return;
  routes.get(crudPath(entity, 'exportXls'), routeOptions(rt, 'export', `Export ${entity.name} as xlsx`), async (request, reply) => {
    const started = performance.now();
    const ctx = contextOf(rt, request);
    const sort = sortOf(entity, request.query as Query);
    const ordered = (await listRows(rt, ctx.caller, request.query as Query)).orderBy(sort.column, sort.order).orderBy('id', sort.order);
    // rows are read and written a page at a time: memory stays flat and other requests keep their turn
    const pageOf = (offset: number) => ordered.limit(EXPORT_PAGE).offset(offset).execute();
    const first = await pageOf(0);
    async function* pages() {
      let rows = first;
      for (let offset = 0; rows.length > 0; ) {
        // a spreadsheet shows times as the wire does: `yyyy-MM-dd HH:mm:ss` in TIME_ZONE
        // an export is imported back: whole ID numbers for those who may edit, as the detail shows them
        const answered = await answeredRows(rt, rows, ctx.lang, ctx.caller, ctx.caller.permissions.has(perm('edit')));
        // each row's lines go below it (one-to-many details)
        if (rt.details.length > 0) {
          const lines = await linesOf(rt, rows, ctx.lang);
          for (const row of answered) Object.assign(row, lines.get(row.id as string));
        }
        yield toWire(answered, app.settings.timeZone);
        offset += rows.length;
        if (rows.length < EXPORT_PAGE || offset >= MAX_EXPORT_ROWS) return;
        rows = await pageOf(offset);
      }
    }
    // the answer ends only once the export's log entry is stored, so a read of the log that follows finds it
    let logged = () => {};
    const entryStored = new Promise<void>((resolve) => (logged = resolve));
    const sheet = new PassThrough();
    const out = new PassThrough({ flush: (done) => void entryStored.then(() => done()) });
    // a reader gone early ends the sheet too, which ends the export
    pipeline(sheet, out, () => {});
    streamWorkbook(entity, pages(), ctx.lang, sheet)
      .then((count) => log(rt, ctx, OperationType.export, 'log.exported', { count }, started))
      .then(() => logged())
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'export failed while streaming');
        out.destroy(error as Error);
      });
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${entity.name}.xlsx"`)
      .send(out);
  });
}
