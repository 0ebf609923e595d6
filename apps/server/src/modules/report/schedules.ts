import { randomUUID } from 'node:crypto';
import {
  LANGUAGES,
  REPORT_SCREENS,
  reportFiltersSchema,
  translate,
  type Language,
  type ReportFilters,
  type ReportKind,
  type ReportPeriod,
  type ReportSchedule,
  type ReportScheduleInput,
  type ReportScreen,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { CurrentUser } from '../../platform/access.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { tenantScoped, writeTenant } from '../../platform/tenancy.ts';
import { parseWireInstant, formatWireTime } from '../../platform/wire-time.ts';
import type { SysReportSchedule } from '../../db/schema.ts';
import { runReport } from './queries.ts';
import { periodText, reportBody, reportName } from './sheet.ts';

export const REPORT_JOB_HANDLER = 'reportSchedule';

const now = (app: FastifyInstance) => new Date(app.clock()).toISOString();

function filtersOf(text: string): ReportFilters {
  try {
    const parsed = reportFiltersSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const recipientIds = (text: string) => text.split(',').filter((id) => id !== '');

function kindsOf(screen: ReportScreen): string[] {
  return [...REPORT_SCREENS[screen]];
}

/** The schedules of a report screen, of the caller's tenant. */
export async function listSchedules(app: FastifyInstance, caller: CurrentUser, screen: ReportScreen): Promise<ReportSchedule[]> {
  const rows = await tenantScoped(app.db.selectFrom('sys_report_schedule'), caller).selectAll().where('report_kind', 'in', kindsOf(screen)).orderBy('create_time').orderBy('id').execute();
  const ids = [...new Set(rows.flatMap((r) => recipientIds(r.recipients)))];
  const users = ids.length === 0 ? [] : await tenantScoped(app.db.selectFrom('sys_user'), caller).select(['id', 'realname', 'username']).where('id', 'in', ids).execute();
  const names = new Map(users.map((u) => [u.id, u.realname || u.username]));
  return rows.map((r) => {
    const recipients = recipientIds(r.recipients);
    return {
      id: r.id,
      reportKind: r.report_kind as ReportKind,
      period: r.period as ReportPeriod,
      filters: filtersOf(r.filters),
      recipients,
      recipientNames: recipients.map((id) => names.get(id) ?? id),
      templateCode: r.template_code,
      cronExpression: r.cron_expression,
      status: r.status === -1 ? -1 : 0,
      lastSendTime: r.last_send_time,
      lastResult: r.last_result,
    };
  });
}

/** Recipients must be users of the caller's tenant, and the template one of its templates. */
async function checkInput(app: FastifyInstance, caller: CurrentUser, screen: ReportScreen, input: ReportScheduleInput): Promise<void> {
  if (!kindsOf(screen).includes(input.reportKind)) throw new AppError('badRequest', 'validation.invalid', { field: 'reportKind' });
  const users = await tenantScoped(app.db.selectFrom('sys_user'), caller).select('id').where('id', 'in', input.recipients).where('del_flag', '=', 0).execute();
  const known = new Set(users.map((u) => u.id));
  const stranger = input.recipients.find((id) => !known.has(id));
  if (stranger) refuse('report.unknownRecipient', { id: stranger });
  const template = await tenantScoped(app.db.selectFrom('sys_message_template'), caller).select('id').where('template_code', '=', input.templateCode).executeTakeFirst();
  if (!template) refuse('message.templateNotFound', { code: input.templateCode });
}

async function findSchedule(app: FastifyInstance, caller: CurrentUser, screen: ReportScreen, id: string): Promise<SysReportSchedule> {
  const row = await tenantScoped(app.db.selectFrom('sys_report_schedule'), caller).selectAll().where('id', '=', id).where('report_kind', 'in', kindsOf(screen)).executeTakeFirst();
  if (!row) refuse('report.scheduleNotFound');
  return row;
}

function values(input: ReportScheduleInput, lang: Language) {
  return {
    report_kind: input.reportKind,
    period: input.period,
    filters: JSON.stringify(input.filters),
    recipients: [...new Set(input.recipients)].join(','),
    template_code: input.templateCode,
    cron_expression: input.cronExpression,
    status: input.status,
    lang,
  };
}

/** A schedule and the scheduled job that fires it (the job scheduler's lease makes each firing run once). */
export async function addSchedule(app: FastifyInstance, caller: CurrentUser, screen: ReportScreen, input: ReportScheduleInput, lang: Language): Promise<string> {
  await checkInput(app, caller, screen, input);
  const id = randomUUID();
  const jobId = randomUUID();
  const audit = { create_by: caller.username, create_time: now(app), update_by: null, update_time: null };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('sys_report_schedule').values({ id, ...values(input, lang), job_id: jobId, last_send_time: null, last_result: null, tenant_id: writeTenant(caller), ...audit }).execute();
    await trx
      .insertInto('sys_quartz_job')
      .values({ id: jobId, job_class_name: REPORT_JOB_HANDLER, cron_expression: input.cronExpression, parameter: id, description: reportName(lang, { kind: input.reportKind }).slice(0, 200), status: input.status, ...audit })
      .execute();
  });
  await app.jobScheduler.sync();
  return id;
}

export async function editSchedule(app: FastifyInstance, caller: CurrentUser, screen: ReportScreen, id: string, input: ReportScheduleInput, lang: Language): Promise<void> {
  const row = await findSchedule(app, caller, screen, id);
  await checkInput(app, caller, screen, input);
  const audit = { update_by: caller.username, update_time: now(app) };
  await app.db.transaction().execute(async (trx) => {
    await trx.updateTable('sys_report_schedule').set({ ...values(input, lang), ...audit }).where('id', '=', row.id).execute();
    if (row.job_id) {
      await trx.updateTable('sys_quartz_job').set({ cron_expression: input.cronExpression, status: input.status, description: reportName(lang, { kind: input.reportKind }).slice(0, 200), ...audit }).where('id', '=', row.job_id).execute();
    }
  });
  await app.jobScheduler.sync();
}

export async function deleteSchedule(app: FastifyInstance, caller: CurrentUser, screen: ReportScreen, id: string): Promise<void> {
  const row = await findSchedule(app, caller, screen, id);
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sys_report_schedule').where('id', '=', row.id).execute();
    if (row.job_id) {
      await trx.deleteFrom('sys_quartz_job_log').where('job_id', '=', row.job_id).execute();
      await trx.deleteFrom('sys_quartz_job').where('id', '=', row.job_id).where('job_class_name', '=', REPORT_JOB_HANDLER).execute();
    }
  });
  await app.jobScheduler.sync();
}

/** `yyyy-MM-dd` plus days */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The period a schedule covers when sent at `at`: the day, the week (Monday on) or the month before, in the site's zone. */
export function schedulePeriod(period: ReportPeriod, at: number, zone: string): { begin: string; end: string } {
  const today = formatWireTime(at, zone).slice(0, 10);
  let from: string;
  let to: string;
  if (period === 'lastDay') {
    from = addDays(today, -1);
    to = today;
  } else if (period === 'lastWeek') {
    const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
    to = addDays(today, -weekday);
    from = addDays(to, -7);
  } else {
    to = `${today.slice(0, 7)}-01`;
    from = `${addDays(to, -1).slice(0, 7)}-01`;
  }
  const start = (d: string) => new Date(parseWireInstant(`${d} 00:00:00`, zone)!).toISOString();
  return { begin: start(from), end: start(to) };
}

/**
 * Sends a schedule's report to each of its recipients who is still a user of its tenant, by e-mail through its
 * template (`${reportName}`, `${begin}`, `${end}`, `${rows}`, `${table}`), each in the recipient's language. Every send
 * is a message row of the message center; what could not be sent is named in the result and on the schedule.
 */
export async function sendScheduledReport(app: FastifyInstance, scheduleId: string | null): Promise<string> {
  const row = scheduleId ? await app.db.selectFrom('sys_report_schedule').selectAll().where('id', '=', scheduleId).executeTakeFirst() : undefined;
  if (!row) throw new Error(`no report schedule ${scheduleId ?? ''}`);
  // the schedule works in its own tenant, as its author did
  const caller: CurrentUser = { id: 'scheduler', username: row.create_by ?? 'scheduler', mustChangePassword: false, permissions: new Set(), tenantId: row.tenant_id, tenantScope: row.tenant_id, orgCode: null, systemAdmin: false };
  const zone = app.settings.timeZone;
  const result = await runReport(app, caller, row.report_kind as ReportKind, schedulePeriod(row.period as ReportPeriod, app.clock(), zone), filtersOf(row.filters));
  const template = await tenantScoped(app.db.selectFrom('sys_message_template'), caller).select('template_type').where('template_code', '=', row.template_code).executeTakeFirst();
  const html = template?.template_type === '2';
  const users = await tenantScoped(app.db.selectFrom('sys_user'), caller)
    .select(['id', 'username', 'realname', 'email', 'lang'])
    .where('id', 'in', recipientIds(row.recipients).length ? recipientIds(row.recipients) : ['-'])
    .where('del_flag', '=', 0)
    .where('status', '=', 1)
    .execute();
  const scheduleLang = (LANGUAGES as readonly string[]).includes(row.lang ?? '') ? (row.lang as Language) : 'zh-CN';
  let sent = 0;
  const failures: string[] = [];
  for (const user of users) {
    const lang = (LANGUAGES as readonly string[]).includes(user.lang ?? '') ? (user.lang as Language) : scheduleLang;
    const name = user.realname || user.username;
    if (!user.email) {
      failures.push(translate(scheduleLang, 'report.noEmail', { name }));
      continue;
    }
    const params = { reportName: reportName(lang, result), ...periodText(result, zone), rows: result.rows.length, table: reportBody(lang, result, html) };
    try {
      const { failure } = await app.systemNotices.sendTemplate(caller, lang, { templateCode: row.template_code, receiver: user.email, msgType: 'email', testData: params });
      if (failure) failures.push(`${name}: ${failure}`);
      else sent += 1;
    } catch (error) {
      failures.push(`${name}: ${error instanceof AppError ? translate(scheduleLang, error.key, error.params as Record<string, string>) : 'internal error'}`);
    }
  }
  const outcome = failures.length === 0 ? translate(scheduleLang, 'report.sent', { count: sent }) : translate(scheduleLang, 'report.sentWithFailures', { count: sent, failures: failures.join('; ') });
  await app.db.updateTable('sys_report_schedule').set({ last_send_time: now(app), last_result: outcome.slice(0, 1000) }).where('id', '=', row.id).execute();
  if (sent === 0 && failures.length > 0) throw new Error(outcome);
  return outcome;
}
