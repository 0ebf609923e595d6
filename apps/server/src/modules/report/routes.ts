import { idSchema, REPORT_SCREENS, reportPath, reportPermission, reportQuery, reportScheduleEdit, reportScheduleInput, type ReportScreen } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { AppError } from '../../platform/envelope.ts';
import { reportPeriod, runReport } from './queries.ts';
import { addSchedule, deleteSchedule, editSchedule, listSchedules, sendScheduledReport } from './schedules.ts';
import { reportWorkbook } from './sheet.ts';

const tags = ['report'];

/**
 * The report screens (`report.access`, `report.alarm`): each answers its reports, their xlsx and its schedules under
 * `/report/<screen>/`, with the screen's view, export and schedule permissions.
 */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const screen of Object.keys(REPORT_SCREENS) as ReportScreen[]) {
    const ofScreen = (kind: string) => {
      if (!(REPORT_SCREENS[screen] as readonly string[]).includes(kind)) throw new AppError('badRequest', 'validation.invalid', { field: 'kind' });
    };
    const compute = async (request: { query: z.infer<typeof reportQuery> }, caller: ReturnType<typeof callerOf>) => {
      const { kind, begin, end, ...filters } = request.query;
      ofScreen(kind);
      return runReport(app, caller, kind, reportPeriod(begin, end, app.settings.timeZone), filters);
    };

    app.get(reportPath(screen, 'run'), { schema: { tags, summary: `A ${screen} report over a period`, querystring: reportQuery }, config: { permission: reportPermission(screen, 'view') } }, async (request, reply) => {
      return reply.ok(await compute(request, callerOf(request)));
    });

    app.get(reportPath(screen, 'exportXls'), { schema: { tags, summary: `A ${screen} report as xlsx`, querystring: reportQuery }, config: { permission: reportPermission(screen, 'export') } }, async (request, reply) => {
      const result = await compute(request, callerOf(request));
      const sheet = await reportWorkbook(request.lang, result);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${result.kind}.xlsx"`)
        .send(sheet);
    });

    app.get(reportPath(screen, 'scheduleList'), { schema: { tags, summary: `The schedules of the ${screen} reports` }, config: { permission: reportPermission(screen, 'schedule') } }, async (request, reply) => {
      return reply.ok(await listSchedules(app, callerOf(request), screen));
    });

    app.post(reportPath(screen, 'scheduleAdd'), { schema: { tags, summary: `Mail a ${screen} report on a schedule`, body: reportScheduleInput }, config: { permission: reportPermission(screen, 'schedule') } }, async (request, reply) => {
      return reply.ok({ id: await addSchedule(app, callerOf(request), screen, request.body, request.lang) }, 'crud.added');
    });

    app.put(reportPath(screen, 'scheduleEdit'), { schema: { tags, summary: `Change a ${screen} report schedule`, body: reportScheduleEdit }, config: { permission: reportPermission(screen, 'schedule') } }, async (request, reply) => {
      const { id, ...input } = request.body;
      await editSchedule(app, callerOf(request), screen, id, input, request.lang);
      return reply.ok(null, 'crud.edited');
    });

    app.delete(reportPath(screen, 'scheduleDelete'), { schema: { tags, summary: `Remove a ${screen} report schedule`, querystring: z.object({ id: idSchema }) }, config: { permission: reportPermission(screen, 'schedule') } }, async (request, reply) => {
      await deleteSchedule(app, callerOf(request), screen, request.query.id);
      return reply.ok(null, 'crud.deleted');
    });

    app.post(reportPath(screen, 'scheduleSend'), { schema: { tags, summary: `Send a ${screen} report schedule now`, body: z.object({ id: idSchema }) }, config: { permission: reportPermission(screen, 'schedule') } }, async (request, reply) => {
      const caller = callerOf(request);
      const [schedule] = (await listSchedules(app, caller, screen)).filter((s) => s.id === request.body.id);
      if (!schedule) throw new AppError('refused', 'report.scheduleNotFound');
      let outcome: string;
      try {
        outcome = await sendScheduledReport(app, schedule.id);
      } catch (error) {
        throw new AppError('refused', 'error.validation', { message: error instanceof Error ? error.message : String(error) });
      }
      return reply.ok({ outcome }, 'error.validation', { message: outcome });
    });
  }
};
