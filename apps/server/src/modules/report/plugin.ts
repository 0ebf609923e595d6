import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendScheduledReport } from './schedules.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** mails a scheduled report to its recipients (the `reportSchedule` scheduled job; parameter: the schedule's id) */
    sendScheduledReport(scheduleId: string | null): Promise<string>;
  }
}

/** The reports' part of the job scheduler: what its `reportSchedule` jobs run. */
export const reportPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('sendScheduledReport', (scheduleId: string | null) => sendScheduledReport(app, scheduleId));
});
