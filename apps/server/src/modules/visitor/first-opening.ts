import { answerLanguage, DeviceEventKind, translate, VisitState, WebhookEventKind, type DeviceEvent } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { visitorOfEvent } from '../../gateway/event-people.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { noticeParagraph } from '../../platform/system-notices.ts';


/**
 * The openings of a device's events by visitors: the first one inside a visit's window tells the visit's host, in his
 * language, once per visit (the statement that marks the visit's first opening is the one that may tell, so two
 * servers or a resent event tell once).
 */
export async function tellHostsOfFirstOpenings(app: FastifyInstance, device: { id: string; tenantId: string | null }, events: readonly DeviceEvent[]): Promise<void> {
  for (const event of events) {
    if (event.kind !== DeviceEventKind.opening) continue;
    const visitorId = await visitorOfEvent(app.db, device, event.data);
    if (!visitorId) continue;
    const at = new Date(event.time).toISOString();
    const door = typeof event.data.door === 'number' ? await app.db.selectFrom('sys_door').select(['id', 'door_name']).where('device_id', '=', device.id).where('door_no', '=', event.data.door).executeTakeFirst() : undefined;
    const visits = await app.db.selectFrom('sys_visit').select(['id', 'host_id', 'tenant_id']).where('visitor_id', '=', visitorId).where('start_time', '<=', at).where('end_time', '>', at).where('state', '=', VisitState.approved).where('first_open_time', 'is', null).execute();
    for (const visit of visits) {
      const marked = await app.db.updateTable('sys_visit').set({ first_open_time: at }).where('id', '=', visit.id).where('first_open_time', 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) continue;
      // the visit's first opening is the visitor's arrival: marked once, so told once
      await app.webhooks.enqueue(app.db, visit.tenant_id, [
        { kind: WebhookEventKind.visitorArrival, time: event.time, data: { visitId: visit.id, visitorId, hostId: visit.host_id, deviceId: device.id, door: typeof event.data.door === 'number' ? event.data.door : null, doorId: door?.id ?? null, doorName: door?.door_name ?? null } },
      ]);
      const [host, visitor] = await Promise.all([
        app.db.selectFrom('sys_user').select(['id', 'lang']).where('id', '=', visit.host_id).executeTakeFirst(),
        app.db.selectFrom('sys_visitor').select('name').where('id', '=', visitorId).executeTakeFirstOrThrow(),
      ]);
      if (!host) continue;
      const lang = answerLanguage(host.lang, null);
      const params = { visitor: visitor.name, door: door?.door_name ?? '', time: formatWireTime(at, app.settings.timeZone) };
      await app.systemNotices.send({
        by: 'visitor',
        tenantId: visit.tenant_id,
        userId: host.id,
        title: translate(lang, 'visit.firstOpeningTitle', params),
        html: noticeParagraph(translate(lang, 'visit.firstOpening', params)),
        busId: visit.id,
      });
    }
  }
}
