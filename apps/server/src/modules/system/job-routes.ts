import { entityLabel, ID_PATTERN, JOB_HANDLERS, jobLogEntity, JobStatus, permissionCode, quartzJobEntity, QuartzJobPath, type ServerOption } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { offerValues, registerEntity } from '../../platform/crud/index.ts';
import { AppError } from '../../platform/envelope.ts';
import { jobHandlers } from './job-scheduler.ts';

const tags = ['quartzJob'];
const idQuery = z.object({ id: z.string().regex(ID_PATTERN) });

/** Scheduled jobs: the generic screen over sys_quartz_job, start / stop / run once, and the run history. */
export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  const scheduler = app.jobScheduler;

  const resync = async () => scheduler.sync();
  registerEntity(app, quartzJobEntity, {
    beforeAdd: (_ctx, values) => {
      values.status = JobStatus.stopped;
    },
    afterChange: resync,
    beforeDelete: async ({ app: a }, rows) => {
      await a.db.deleteFrom('sys_quartz_job_log').where('job_id', 'in', rows.map((r) => r.id as string)).execute();
    },
    routes: (routes, registered) => {
      const setStatus = (path: string, status: number, action: 'pause' | 'resume') =>
        routes.get(path, { schema: { tags, summary: action === 'pause' ? 'Stop a job' : 'Start a job', querystring: idQuery }, config: { permission: permissionCode(quartzJobEntity, action) } }, async (request, reply) => {
          const started = performance.now();
          const caller = callerOf(request);
          const { id } = request.query as z.infer<typeof idQuery>;
          const job = await registered.findById(caller, id);
          if (!job) throw new AppError('notFound', 'crud.notFound');
          await app.db.updateTable('sys_quartz_job').set({ status, update_by: caller.username, update_time: new Date(app.clock()).toISOString() }).where('id', '=', id).execute();
          await scheduler.sync();
          await writeOperationLog(app, { operateType: OperationType.edit, userId: caller.id, username: caller.username, tenantId: caller.tenantId, ip: request.ip, content: { key: action === 'pause' ? 'log.jobPaused' : 'log.jobResumed', params: { entity: quartzJobEntity.title, id } }, costMs: performance.now() - started });
          return reply.ok(null, action === 'pause' ? 'quartzJob.paused' : 'quartzJob.resumed');
        });
      setStatus(QuartzJobPath.pause, JobStatus.stopped, 'pause');
      setStatus(QuartzJobPath.resume, JobStatus.normal, 'resume');

      const handlers = offerValues(QuartzJobPath.handlers, JOB_HANDLERS.filter((h) => Object.hasOwn(jobHandlers, h.value)));
      routes.get(QuartzJobPath.handlers, { schema: { tags, summary: 'The job handlers this server runs' }, config: { permission: permissionCode(quartzJobEntity, 'list') } }, async (request, reply) =>
        reply.ok(handlers.map((h): ServerOption => ({ value: h.value, text: entityLabel(request.lang, h.label) }))),
      );

      routes.get(
        QuartzJobPath.execute,
        { schema: { tags, summary: 'Run a job once now', querystring: idQuery }, config: { permission: permissionCode(quartzJobEntity, 'execute') } },
        async (request, reply) => {
          const started = performance.now();
          const caller = callerOf(request);
          const { id } = request.query as z.infer<typeof idQuery>;
          const job = await registered.findById(caller, id);
          if (!job) throw new AppError('notFound', 'crud.notFound');
          const outcome = await scheduler.fire(id, new Date(app.clock()), true);
          await writeOperationLog(app, { operateType: OperationType.edit, userId: caller.id, username: caller.username, tenantId: caller.tenantId, ip: request.ip, content: { key: 'log.jobExecuted', params: { entity: quartzJobEntity.title, id } }, costMs: performance.now() - started });
          if (!outcome.success) throw new AppError('refused', 'quartzJob.executeFailed', { result: outcome.message ?? '' });
          return reply.ok({ message: outcome.message }, 'quartzJob.executed', { result: outcome.message ?? '' });
        },
      );
    },
  });
  registerEntity(app, jobLogEntity);
};
