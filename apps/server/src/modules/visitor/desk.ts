import {
  deskFindQuery,
  deskIssueCardBody,
  deskPassQuery,
  maskCardNo,
  permissionCode,
  readIdCardQuery,
  VisitorDeskPath,
  VisitState,
  visitEntity,
  visitorEntity,
  type DeskLookup,
  type DeskVisit,
  type VisitPass,
} from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { writeCallerLog } from '../../platform/audit-log.ts';
import { palmEnrollmentRoutes, readIdCardAt } from '../../platform/capture.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { checkCardNo } from '../../platform/person-credentials.ts';
import { showSeededRows } from '../../platform/seeded-texts.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { formatWireTime, parseWireTime } from '../../platform/wire-time.ts';

const tags = ['visitor'];

/**
 * The arrivals desk (issue 30): read the visitor's ID card at a capture device, find him and his visits of today,
 * issue him a door card or enrol a palm (platform/capture.ts, as people's enrollment), and show a visit's pass. The
 * card number is written, never answered: only its masked form leaves the server.
 */
export function deskRoutes(app: FastifyInstance): void {
  const deskPermission = permissionCode(visitEntity, 'desk');

  /** A visitor of the caller's tenant (not deleted), by id. */
  const visitorOf = (caller: CurrentUser, id: string) =>
    tenantScoped(app.db.selectFrom('sys_visitor').select(['id', 'name', 'tenant_id']), caller)
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst();

  /** The doors of visits, by visit id, by their names. */
  async function doorsOf(visitIds: string[]): Promise<Map<string, string[]>> {
    const doors = new Map<string, string[]>();
    if (visitIds.length === 0) return doors;
    const rows = await app.db
      .selectFrom('sys_visit_door as vd')
      .innerJoin('sys_door as d', 'd.id', 'vd.door_id')
      .select(['vd.visit_id', 'd.door_name'])
      .where('vd.visit_id', 'in', visitIds)
      .orderBy('d.door_name')
      .execute();
    for (const r of rows) doors.set(r.visit_id, [...(doors.get(r.visit_id) ?? []), String(r.door_name)]);
    return doors;
  }

  /** The hosts' names as the reader reads them (a seeded user's name is in his language). */
  async function hostNames(request: FastifyRequest, rows: Array<{ username: string | null; realname: string | null }>): Promise<string[]> {
    const shown = await showSeededRows(app, 'user', rows.map((r) => ({ username: r.username, realname: r.realname })), request.lang);
    return shown.map((r) => String(r.realname || r.username || ''));
  }

  /** The end of today in the console's zone, as times are stored. */
  function endOfToday(): string {
    const today = formatWireTime(app.clock(), app.settings.timeZone).slice(0, 10);
    return parseWireTime(`${today} 23:59:59`, app.settings.timeZone) ?? new Date(app.clock()).toISOString();
  }

  app.get(
    VisitorDeskPath.readIdCard,
    { schema: { tags, summary: 'Read the visitor’s ID card on the capture device', querystring: readIdCardQuery }, config: { permission: deskPermission } },
    async (request, reply) => {
      const idCard = await readIdCardAt(app, reply, callerOf(request), (request.query as z.infer<typeof readIdCardQuery>).deviceId, visitEntity.title);
      return reply.ok({ idCard }, 'people.idCardRead');
    },
  );

  app.get(
    VisitorDeskPath.find,
    { schema: { tags, summary: 'The visitor with this ID number and his visits of today', querystring: deskFindQuery }, config: { permission: deskPermission } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { idCard } = request.query as z.infer<typeof deskFindQuery>;
      const visitor = await tenantScoped(
        app.db.selectFrom('sys_visitor').select(['id', 'name', 'id_card', 'phone', 'card_no_masked', 'palm_left', 'palm_right', 'status']),
        caller,
      )
        .where('id_card', '=', idCard)
        .where('del_flag', '=', 0)
        .executeTakeFirst();
      if (!visitor) refuse('visitorDesk.noVisitor');
      const now = new Date(app.clock()).toISOString();
      // today's approved visits: current, or starting later today (a request the host has not approved is no visit yet)
      const visits = await tenantScoped(
        app.db
          .selectFrom('sys_visit as v')
          .leftJoin('sys_user as u', 'u.id', 'v.host_id')
          .select(['v.id', 'v.start_time', 'v.end_time', 'u.realname', 'u.username']),
        caller,
        'v.tenant_id',
      )
        .where('v.visitor_id', '=', visitor.id)
        .where('v.state', '=', VisitState.approved)
        .where('v.end_time', '>', now)
        .where('v.start_time', '<=', endOfToday())
        .orderBy('v.start_time')
        .execute();
      const doors = await doorsOf(visits.map((v) => v.id));
      const hosts = await hostNames(request, visits);
      const result: DeskLookup = {
        visitor: {
          id: visitor.id,
          name: visitor.name,
          idCardMasked: maskCardNo(visitor.id_card),
          phone: visitor.phone,
          cardNoMasked: visitor.card_no_masked ?? null,
          palmLeft: Number(visitor.palm_left),
          palmRight: Number(visitor.palm_right),
          status: Number(visitor.status),
        },
        visits: visits.map((v, i): DeskVisit => ({ id: v.id, hostName: hosts[i] ?? '', startTime: v.start_time, endTime: v.end_time, doors: doors.get(v.id) ?? [] })),
      };
      return reply.ok(result, 'visitorDesk.found', { name: visitor.name });
    },
  );

  app.post(
    VisitorDeskPath.issueCard,
    { schema: { tags, summary: 'Issue a door card to a visitor (the number is write-only)', body: deskIssueCardBody }, config: { permission: permissionCode(visitorEntity, 'issueCard') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body as z.infer<typeof deskIssueCardBody>;
      const visitor = await visitorOf(caller, body.visitorId);
      if (!visitor) throw new AppError('notFound', 'crud.notFound');
      const values: Record<string, unknown> = { cardNo: body.cardNo };
      // unique within the tenant across people and visitors, deleted ones included
      await checkCardNo(app, values, visitor.tenant_id ?? null, visitor.id);
      const cardNoMasked = String(values.cardNoMasked);
      await app.db
        .updateTable('sys_visitor')
        .set({ card_no: body.cardNo, card_no_masked: cardNoMasked, update_by: caller.username, update_time: new Date(app.clock()).toISOString() })
        .where('id', '=', visitor.id)
        .execute();
      await writeCallerLog(reply, caller, { key: 'log.visitorCardIssued', params: { entity: visitorEntity.title, name: visitor.name } });
      return reply.ok({ cardNoMasked }, 'visitorDesk.cardIssued');
    },
  );

  palmEnrollmentRoutes(app, {
    holder: 'visitor',
    tags,
    paths: { enroll: VisitorDeskPath.enroll, enrollStatus: VisitorDeskPath.enrollStatus, enrollCancel: VisitorDeskPath.enrollCancel },
    permission: permissionCode(visitorEntity, 'enroll'),
    find: async (caller, id) => {
      const visitor = await visitorOf(caller, id);
      return visitor ? { id: visitor.id, name: visitor.name, tenantId: visitor.tenant_id ?? null } : undefined;
    },
  });

  app.get(
    VisitorDeskPath.pass,
    { schema: { tags, summary: 'What a visit’s pass shows (its QR code holds the visit id)', querystring: deskPassQuery }, config: { permission: deskPermission } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { visitId } = request.query as z.infer<typeof deskPassQuery>;
      const visit = await tenantScoped(
        app.db
          .selectFrom('sys_visit as v')
          .innerJoin('sys_visitor as p', 'p.id', 'v.visitor_id')
          .leftJoin('sys_user as u', 'u.id', 'v.host_id')
          .select(['v.id', 'v.start_time', 'v.end_time', 'v.state', 'p.name', 'u.realname', 'u.username']),
        caller,
        'v.tenant_id',
      )
        .where('v.id', '=', visitId)
        .executeTakeFirst();
      if (!visit) throw new AppError('notFound', 'crud.notFound');
      // a request the host has not approved (or has refused) lets nobody in: no pass for it
      if (visit.state !== VisitState.approved) refuse('visitorDesk.notApproved');
      const pass: VisitPass = {
        visitId: visit.id,
        visitorName: visit.name,
        hostName: (await hostNames(request, [visit]))[0] ?? '',
        startTime: visit.start_time,
        endTime: visit.end_time,
        doors: (await doorsOf([visit.id])).get(visit.id) ?? [],
      };
      return reply.ok(pass);
    },
  );
}
