import { AlarmPath, AlarmState, alarmBatchBody, alarmEntity, alarmFilter, ALARM_BATCH_ACTIONS, ID_PATTERN, permissionCode, type AlarmBatchAction, type AlarmFilter } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely, UpdateQueryBuilder, UpdateResult, WhereInterface } from 'kysely';
import * as z from 'zod';
import type { Database } from '../../db/schema.ts';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { writeCallerLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { refuse } from '../../platform/envelope.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { requireWireTime } from '../../platform/wire-time.ts';

const tags = ['device'];
const idBody = z.object({ id: z.string().regex(ID_PATTERN) });
// a query takes what the console adds to every GET (`_t`) besides the filter: unknown parameters are dropped, not refused
const countQuery = z.object({ ...alarmFilter.shape, to: z.enum(ALARM_BATCH_ACTIONS) });

/** What each handling does: the state it sets, and the states it takes an alarm from. */
const HANDLING: Record<AlarmBatchAction, { to: number; from: readonly number[] }> = {
  acknowledge: { to: AlarmState.acknowledged, from: [AlarmState.open] },
  close: { to: AlarmState.closed, from: [AlarmState.open, AlarmState.acknowledged] },
};

type AlarmUpdate = UpdateQueryBuilder<Database, 'sys_device_alarm', 'sys_device_alarm', UpdateResult>;

/** The areas an area holds: itself and every area below it, of the caller's tenant. */
async function areaWithin(db: Kysely<Database>, caller: CurrentUser, areaId: string): Promise<string[]> {
  const areas = await tenantScoped(db.selectFrom('sys_area').select(['id', 'parent_id']), caller).execute();
  const below = new Map<string, string[]>();
  for (const area of areas) if (area.parent_id) below.set(area.parent_id, [...(below.get(area.parent_id) ?? []), area.id]);
  const found = new Set<string>([areaId]);
  const queue = [areaId];
  while (queue.length > 0) {
    for (const child of below.get(queue.pop()!) ?? []) {
      if (found.has(child)) continue;
      found.add(child);
      queue.push(child);
    }
  }
  return [...found];
}

/**
 * Alarms raised by devices: acknowledged and closed one by one, by chosen rows, or all those matching a filter (code,
 * device, area with the areas below it, time of raising), always within the caller's tenant and with the permission of
 * the per-row handling. Closing ends an alarm's folding: the next repeat raises a new one.
 */
export const alarmRoutes: FastifyPluginAsyncZod = async (app) => {
  const zone = app.settings.timeZone;

  /** The filter as conditions on an alarm query (the begin and end times as the wire gives them). */
  async function matching<Q extends WhereInterface<Database, 'sys_device_alarm'>>(query: Q, caller: CurrentUser, filter: AlarmFilter): Promise<Q> {
    let q: WhereInterface<Database, 'sys_device_alarm'> = query;
    if (filter.code) q = q.where('code', '=', filter.code);
    if (filter.deviceId) q = q.where('device_id', '=', filter.deviceId);
    if (filter.level) q = q.where('level', '=', filter.level);
    if (filter.areaId) q = q.where('area_id', 'in', await areaWithin(app.db, caller, filter.areaId));
    if (filter.alarmTime_begin) q = q.where('alarm_time', '>=', requireWireTime(filter.alarmTime_begin, zone, 'datetime', 'alarmTime_begin'));
    if (filter.alarmTime_end) q = q.where('alarm_time', '<=', requireWireTime(filter.alarmTime_end, zone, 'datetime', 'alarmTime_end'));
    return q as Q;
  }

  /** Sets the handling on the alarms `which` picks among the caller's that are in a state it takes; answers how many. */
  async function handleAlarms(caller: CurrentUser, action: AlarmBatchAction, which: (q: AlarmUpdate) => Promise<AlarmUpdate> | AlarmUpdate): Promise<number> {
    const { to, from } = HANDLING[action];
    const at = new Date(app.clock()).toISOString();
    // a closed alarm folds no more: its key is let go, so the next repeat raises a new alarm
    const query = tenantScoped(app.db.updateTable('sys_device_alarm'), caller)
      .set({ state: to, handled_by: caller.username, handled_time: at, update_by: caller.username, update_time: at, ...(to === AlarmState.closed ? { open_key: null } : {}) })
      .where('state', 'in', [...from]);
    const result = await (await which(query)).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  registerEntity(app, alarmEntity, {
    routes: (routes, registered) => {
      const permission = permissionCode(alarmEntity, 'handle');
      for (const action of ALARM_BATCH_ACTIONS) {
        const acknowledge = action === 'acknowledge';
        routes.put(acknowledge ? AlarmPath.acknowledge : AlarmPath.close, { schema: { tags, summary: acknowledge ? 'Acknowledge an open alarm' : 'Close an alarm', body: idBody }, config: { permission } }, async (request, reply) => {
          const caller = callerOf(request);
          const alarm = await registered.findById(caller, (request.body as z.infer<typeof idBody>).id);
          if (!alarm) refuse('crud.notFound');
          const changed = await handleAlarms(caller, action, (q) => q.where('id', '=', String(alarm.id)));
          if (changed === 0) refuse('alarm.wrongState');
          const device = await app.db.selectFrom('sys_device').select('device_name').where('id', '=', String(alarm.device_id)).executeTakeFirst();
          await writeCallerLog(reply, caller, { key: acknowledge ? 'log.alarmAcknowledged' : 'log.alarmClosed', params: { entity: alarmEntity.title, code: String(alarm.code), device: device?.device_name ?? String(alarm.device_id) } });
          return reply.ok(null, acknowledge ? 'alarm.acknowledged' : 'alarm.closed');
        });

        routes.put(
          acknowledge ? AlarmPath.acknowledgeBatch : AlarmPath.closeBatch,
          { schema: { tags, summary: acknowledge ? 'Acknowledge the chosen open alarms (ids) or every open one matching a filter' : 'Close the chosen alarms (ids) or every one matching a filter', body: alarmBatchBody }, config: { permission } },
          async (request, reply) => {
            const caller = callerOf(request);
            const body = request.body as z.infer<typeof alarmBatchBody>;
            const count =
              'ids' in body
                ? await handleAlarms(caller, action, (q) => q.where('id', 'in', [...new Set(body.ids)]))
                : await handleAlarms(caller, action, (q) => matching(q, caller, body.filter));
            if (count === 0) refuse('alarm.batchNone');
            const which = 'ids' in body ? `ids: ${body.ids.length}` : JSON.stringify(body.filter).slice(0, 300);
            await writeCallerLog(reply, caller, { key: acknowledge ? 'log.alarmsAcknowledged' : 'log.alarmsClosed', params: { entity: alarmEntity.title, count: String(count), which } });
            return reply.ok({ count }, acknowledge ? 'alarm.batchAcknowledged' : 'alarm.batchClosed', { count });
          },
        );
      }

      routes.get(AlarmPath.batchCount, { schema: { tags, summary: 'How many alarms a handling by filter would change', querystring: countQuery }, config: { permission } }, async (request, reply) => {
        const caller = callerOf(request);
        const { to, ...filter } = request.query as z.infer<typeof countQuery>;
        const base = tenantScoped(app.db.selectFrom('sys_device_alarm').select((eb) => eb.fn.countAll<number | string>().as('n')), caller).where('state', 'in', [...HANDLING[to].from]);
        const row = await (await matching(base, caller, filter)).executeTakeFirst();
        return reply.ok({ count: Number(row?.n ?? 0) });
      });
    },
  });
};
