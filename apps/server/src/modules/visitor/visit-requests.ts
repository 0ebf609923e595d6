import { randomUUID } from 'node:crypto';
import {
  answerLanguage,
  entityLabel,
  permissionCode,
  translate,
  visitApproveBody,
  visitEntity,
  visitIdBody,
  VisitorPath,
  visitorReadBody,
  VisitPath,
  visitRefuseBody,
  visitRequestBody,
  VisitState,
  type Language,
  type MessageKey,
  type MyVisit,
  type VisitHost,
  type VisitorMessage,
  type VisitorMessages,
  type VisitDoorOption,
  type VisitStateValue,
} from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '../../db/schema.ts';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { linkIds } from '../../platform/crud/values.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { assertMayBindDeviceTargets, bindableDeviceTargets } from '../../platform/grants.ts';
import { noticeParagraph } from '../../platform/system-notices.ts';
import { sameTenantAs, tenantScoped } from '../../platform/tenancy.ts';
import { formatWireTime, parseWireInstant } from '../../platform/wire-time.ts';
import { findVisitor } from './visitor-service.ts';

const tags = ['visitor'];
/** the longest visit a visitor may ask for */
const MAX_VISIT_DAYS = 30;
/** a start this close to now (a form filled a minute ago) is not "in the past" */
const START_GRACE_MS = 5 * 60_000;
/** how many hosts a name search answers */
const HOST_LIST_SIZE = 20;


async function nameOfUser(app: FastifyInstance, id: string): Promise<string> {
  const user = await app.db.selectFrom('sys_user').select(['realname', 'username']).where('id', '=', id).executeTakeFirst();
  return user?.realname || user?.username || '';
}

/** A message to a visitor: keys and parameters, rendered when he reads it, in his language then. */
async function tellVisitor(app: FastifyInstance, visit: { id: string; visitor_id: string; tenant_id: string | null }, titleKey: MessageKey, bodyKey: MessageKey, params: Record<string, string>) {
  await app.db
    .insertInto('sys_visitor_message')
    .values({
      id: randomUUID(),
      visitor_id: visit.visitor_id,
      visit_id: visit.id,
      title_key: titleKey,
      body_key: bodyKey,
      params: JSON.stringify(params),
      read_flag: 0,
      tenant_id: visit.tenant_id,
      create_by: 'system',
      create_time: new Date(app.clock()).toISOString(),
      update_by: null,
      update_time: null,
    })
    .execute();
}

// ---------------------------------------------------------------------------------------------------------------
// the visitor's side (registered inside visitorRoutes, whose hook admits visitor tokens only)

/**
 * The signed-in visitor's own visits and messages, and his requests: every query is bound to `request.visitorId`, so
 * a visitor never reads or touches another's; a request names a host of the visitor's tenant and a window, never doors
 * (the host picks them when approving).
 */
export const myVisitRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { permission: 'public', visitor: true } as const;
  const me = async (request: FastifyRequest) => {
    const visitor = await findVisitor(app, request.visitorId as string);
    if (!visitor) throw new AppError('unauthorized', 'error.unauthorized');
    return visitor;
  };

  app.get(VisitorPath.myVisits, { schema: { tags, summary: 'The visitor’s own visits' }, config }, async (request, reply) => {
    const visits = await app.db.selectFrom('sys_visit').selectAll().where('visitor_id', '=', request.visitorId as string).orderBy('start_time', 'desc').limit(200).execute();
    const ids = visits.map((v) => v.id);
    const doors = ids.length === 0 ? [] : await app.db.selectFrom('sys_visit_door as l').innerJoin('sys_door as d', 'd.id', 'l.door_id').select(['l.visit_id', 'd.door_name']).where('l.visit_id', 'in', ids).execute();
    const hostIds = [...new Set(visits.map((v) => v.host_id))];
    const hosts = hostIds.length === 0 ? [] : await app.db.selectFrom('sys_user').select(['id', 'realname', 'username']).where('id', 'in', hostIds).execute();
    const hostName = new Map(hosts.map((h) => [h.id, h.realname || h.username]));
    const result: MyVisit[] = visits.map((v) => ({
      id: v.id,
      state: v.state as VisitStateValue,
      startTime: v.start_time,
      endTime: v.end_time,
      hostName: hostName.get(v.host_id) ?? '',
      doorNames: doors.filter((d) => d.visit_id === v.id).map((d) => d.door_name),
      remark: v.remark,
      refuseReason: v.refuse_reason,
      firstOpenTime: v.first_open_time,
      createTime: v.create_time,
    }));
    return reply.ok(result);
  });

  app.get(
    VisitorPath.hosts,
    { schema: { tags, summary: 'Hosts the visitor may ask, by name', querystring: z.object({ name: z.string().trim().max(100).optional() }) }, config },
    async (request, reply) => {
      const visitor = await me(request);
      let query = sameTenantAs(app.db.selectFrom('sys_user').select(['id', 'realname', 'username']).where('del_flag', '=', 0).where('status', '=', 1), visitor.tenant_id);
      // a typed % is no wildcard (an _ matching any one character only widens a short list)
      const name = request.query.name?.replace(/%/g, '');
      if (name) query = query.where((eb) => eb.or([eb('realname', 'like', `%${name}%`), eb('username', 'like', `%${name}%`)]));
      const rows = await query.orderBy('realname').limit(HOST_LIST_SIZE).execute();
      const result: VisitHost[] = rows.map((u) => ({ id: u.id, realname: u.realname || u.username }));
      return reply.ok(result);
    },
  );

  app.post(VisitorPath.askVisit, { schema: { tags, summary: 'Ask for a visit; the host approves or refuses it', body: visitRequestBody }, config }, async (request, reply) => {
    const visitor = await me(request);
    const lang = request.lang;
    const body = request.body;
    if (!body.hostId) refuse('visit.hostRequired');
    const host = await sameTenantAs(app.db.selectFrom('sys_user').select(['id', 'realname', 'username', 'lang']).where('id', '=', body.hostId).where('del_flag', '=', 0).where('status', '=', 1), visitor.tenant_id).executeTakeFirst();
    if (!host) refuse('visit.hostUnknown');
    const { start, end } = windowOf(lang, body.startTime, body.endTime, app.settings.timeZone);
    const now = app.clock();
    if (start < now - START_GRACE_MS) throw new AppError('badRequest', 'visit.startPast', { field: entityLabel(lang, 'visit.field.startTime') });
    if (end - start > MAX_VISIT_DAYS * 86_400_000) throw new AppError('badRequest', 'visit.tooLong', { days: String(MAX_VISIT_DAYS) });
    const id = randomUUID();
    const remark = body.remark ?? '';
    await app.db
      .insertInto('sys_visit')
      .values({
        id,
        visitor_id: visitor.id,
        host_id: host.id,
        start_time: new Date(start).toISOString(),
        end_time: new Date(end).toISOString(),
        remark: remark || null,
        state: VisitState.requested,
        tenant_id: visitor.tenant_id,
        create_by: 'visitor',
        create_time: new Date(now).toISOString(),
        update_by: null,
        update_time: null,
      })
      .execute();
    // the host is told in his own language, through the message center (his inbox and a pushed notice)
    const hostLang = answerLanguage(host.lang, null);
    const zone = app.settings.timeZone;
    const params = { visitor: visitor.name, start: formatWireTime(start, zone), end: formatWireTime(end, zone), remark: remark || translate(hostLang, 'visit.noReason') };
    await app.systemNotices.send({
      by: 'visitor',
      tenantId: visitor.tenant_id,
      userId: host.id,
      title: translate(hostLang, 'visit.requestTitle', params),
      html: noticeParagraph(translate(hostLang, 'visit.request', params)),
      busId: id,
    });
    return reply.ok({ id }, 'visit.requested', { host: host.realname || host.username });
  });

  app.put(VisitorPath.cancelVisit, { schema: { tags, summary: 'Withdraw one’s own request while it waits', body: visitIdBody }, config }, async (request, reply) => {
    const visit = await app.db.selectFrom('sys_visit').select(['id', 'state']).where('id', '=', request.body.id).where('visitor_id', '=', request.visitorId as string).executeTakeFirst();
    if (!visit) throw new AppError('notFound', 'visit.notFound');
    if (visit.state !== VisitState.requested) refuse('visit.notRequested');
    const gone = await app.db.deleteFrom('sys_visit').where('id', '=', visit.id).where('state', '=', VisitState.requested).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) refuse('visit.notRequested');
    return reply.ok(null, 'visit.cancelled');
  });

  app.get(VisitorPath.messages, { schema: { tags, summary: 'The visitor’s messages and how many are unread' }, config }, async (request, reply) => {
    const rows = await app.db.selectFrom('sys_visitor_message').selectAll().where('visitor_id', '=', request.visitorId as string).orderBy('create_time', 'desc').limit(100).execute();
    const unread = await app.db.selectFrom('sys_visitor_message').select((eb) => eb.fn.countAll<number>().as('n')).where('visitor_id', '=', request.visitorId as string).where('read_flag', '=', 0).executeTakeFirstOrThrow();
    const records: VisitorMessage[] = rows.map((m) => {
      const params = JSON.parse(m.params) as Record<string, string>;
      return {
        id: m.id,
        title: translate(request.lang, m.title_key as MessageKey, params),
        content: translate(request.lang, m.body_key as MessageKey, { ...params, doors: params.doors || translate(request.lang, 'visit.noDoors'), reason: params.reason || translate(request.lang, 'visit.noReason') }),
        read: Number(m.read_flag) === 1,
        visitId: m.visit_id,
        createTime: m.create_time,
      };
    });
    const result: VisitorMessages = { records, unread: Number(unread.n) };
    return reply.ok(result);
  });

  app.put(VisitorPath.readMessages, { schema: { tags, summary: 'Mark one message, or all, read', body: visitorReadBody }, config }, async (request, reply) => {
    let query = app.db.updateTable('sys_visitor_message').set({ read_flag: 1 }).where('visitor_id', '=', request.visitorId as string);
    if (request.body.id) query = query.where('id', '=', request.body.id);
    await query.execute();
    return reply.ok(null);
  });
};

/** The window of a request, each edge a wire time, the end after the start; refusals name the field in `lang`. */
function windowOf(lang: Language, startText: string | undefined, endText: string | undefined, zone: string): { start: number; end: number } {
  const edge = (text: string | undefined, label: string) => {
    const field = entityLabel(lang, label);
    if (!text) throw new AppError('badRequest', 'validation.required', { field });
    const ms = parseWireInstant(text, zone);
    if (ms === null) throw new AppError('badRequest', 'validation.dateTime', { field });
    return ms;
  };
  const start = edge(startText, 'visit.field.startTime');
  const end = edge(endText, 'visit.field.endTime');
  if (end <= start) throw new AppError('badRequest', 'visit.windowOrder', { field: entityLabel(lang, 'visit.field.endTime') });
  return { start, end };
}

// ---------------------------------------------------------------------------------------------------------------
// the host's side (staff)

/** The requested visit `id` of the caller's tenant that the caller may decide: its host, or an editor of visits. */
async function decidable(app: FastifyInstance, caller: CurrentUser, id: string) {
  const visit = await tenantScoped(app.db.selectFrom('sys_visit').selectAll().where('id', '=', id), caller).executeTakeFirst();
  if (!visit) throw new AppError('notFound', 'visit.notFound');
  if (visit.host_id !== caller.id && !caller.permissions.has(permissionCode(visitEntity, 'edit'))) throw new AppError('forbidden', 'visit.notHost');
  if (visit.state !== VisitState.requested) refuse('visit.notRequested');
  return visit;
}

/** Marks the decision, once: answers false when another decision (or a withdrawal) came first. */
async function decide(db: Kysely<Database>, app: FastifyInstance, caller: CurrentUser, id: string, set: { state: VisitStateValue; refuse_reason?: string | null }) {
  const done = await db
    .updateTable('sys_visit')
    .set({ ...set, update_by: caller.username, update_time: new Date(app.clock()).toISOString() })
    .where('id', '=', id)
    .where('state', '=', VisitState.requested)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) refuse('visit.notRequested');
}

/** The visitor told of the host's decision, and the decision in the operation log. */
async function announceDecision(
  app: FastifyInstance,
  request: FastifyRequest,
  visit: { id: string; visitor_id: string; tenant_id: string | null; start_time: string; end_time: string },
  decision: { title: MessageKey; body: MessageKey; log: MessageKey; params: Record<string, string>; started: number },
) {
  const caller = callerOf(request);
  const zone = app.settings.timeZone;
  await tellVisitor(app, visit, decision.title, decision.body, {
    host: await nameOfUser(app, caller.id),
    start: formatWireTime(visit.start_time, zone),
    end: formatWireTime(visit.end_time, zone),
    ...decision.params,
  });
  await writeOperationLog(app, {
    operateType: OperationType.edit,
    userId: caller.id,
    username: caller.username,
    tenantId: caller.tenantId,
    ip: request.ip,
    content: { key: decision.log, params: { entity: visitEntity.title, ids: visit.id } },
    costMs: performance.now() - decision.started,
  });
}

/**
 * `PUT /vistor/visit/approve` and `/refuse`: the host's decision on a visitor's request. Approving binds the doors
 * chosen through the grant rule of the visit form (platform/grants.ts): the doors of the caller's tenant he may hand
 * out; the approved visit then reaches the devices through the access sync. The visitor gets a message either way.
 */
export function registerVisitDecisions(app: FastifyInstance) {
  const typed = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
  typed.put(
    VisitPath.approve,
    { schema: { tags, summary: 'Approve a visitor’s request, choosing its doors', body: visitApproveBody }, config: { permission: permissionCode(visitEntity, 'approve') } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const visit = await decidable(app, caller, request.body.id);
      const before = (await app.db.selectFrom('sys_visit_door').select('door_id').where('visit_id', '=', visit.id).execute()).map((r) => r.door_id);
      const doorIds = request.body.doorIds === undefined ? before : [...new Set(linkIds(request.body.doorIds))];
      const doors = doorIds.length === 0 ? [] : await tenantScoped(app.db.selectFrom('sys_door').select(['id', 'door_name']).where('id', 'in', doorIds), caller).execute();
      if (doors.length !== doorIds.length) throw new AppError('badRequest', 'validation.invalid', { field: entityLabel(request.lang, 'visit.field.doorIds') });
      // as the visit form's edit: every door it opens or stops opening must be the caller's to hand out
      await assertMayBindDeviceTargets(app, caller, { areaIds: [], deviceIds: [], doorIds: [...new Set([...before, ...doorIds])] });
      await app.db.transaction().execute(async (trx) => {
        const now = new Date(app.clock()).toISOString();
        await decide(trx, app, caller, visit.id, { state: VisitState.approved });
        await trx.deleteFrom('sys_visit_door').where('visit_id', '=', visit.id).execute();
        for (const door of doors) {
          await trx.insertInto('sys_visit_door').values({ id: randomUUID(), visit_id: visit.id, door_id: door.id, create_by: caller.username, create_time: now, update_by: null, update_time: null }).execute();
        }
      });
      await announceDecision(app, request, visit, { title: 'visit.approvedTitle', body: 'visit.approvedBody', log: 'log.visitApproved', params: { doors: doors.map((d) => d.door_name).join(', ') }, started });
      return reply.ok(null, 'visit.approved');
    },
  );
  typed.get(
    VisitPath.approvableDoors,
    { schema: { tags, summary: 'The doors the caller may open to a visitor on approving' }, config: { permission: permissionCode(visitEntity, 'approve') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const covered = await bindableDeviceTargets(app, caller);
      const doors = await tenantScoped(app.db.selectFrom('sys_door').select(['id', 'door_name']).orderBy('door_name').limit(1000), caller).execute();
      const result: VisitDoorOption[] = doors.filter((d) => !covered || covered.doorIds.has(d.id)).map((d) => ({ id: d.id, doorName: d.door_name }));
      return reply.ok(result);
    },
  );
  typed.put(
    VisitPath.refuse,
    { schema: { tags, summary: 'Refuse a visitor’s request', body: visitRefuseBody }, config: { permission: permissionCode(visitEntity, 'refuse') } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const visit = await decidable(app, caller, request.body.id);
      const reason = request.body.reason ?? '';
      await decide(app.db, app, caller, visit.id, { state: VisitState.refused, refuse_reason: reason || null });
      await announceDecision(app, request, visit, { title: 'visit.refusedTitle', body: 'visit.refusedBody', log: 'log.visitRefused', params: { reason }, started });
      return reply.ok(null, 'visit.refused');
    },
  );
}
