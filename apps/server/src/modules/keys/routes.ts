import { ID_PATTERN, KEY_HISTORY_LIMIT, keyEntity, KeyPath, keyPeopleEntity, keyRoleEntity, KeyStatus, permissionCode, type KeyHistoryRow } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { linkIds } from '../../platform/crud/values.ts';
import { assertMayHandKeys, keysReachingPeople } from '../../platform/grants.ts';
import { refuse } from '../../platform/envelope.ts';
import { tenantScoped } from '../../platform/tenancy.ts';

const tags = ['keys'];

/** A key cabinet of the caller's tenant (a device of system ks, or one that has not said its system), or a refusal. */
async function callersKeyCabinet(app: FastifyInstance, caller: CurrentUser, id: string) {
  const device = await tenantScoped(app.db.selectFrom('sys_device').select(['id', 'device_name', 'system_type']), caller).where('id', '=', id).executeTakeFirst();
  if (!device) refuse('keys.deviceNotFound');
  if (device.system_type && device.system_type !== 'ks') refuse('keys.notKeyCabinet');
  return device;
}

/** Keys, key people and key roles; each key's history of takes and returns. */
export const keyRoutes: FastifyPluginAsyncZod = async (app) => {
  const keys = registerEntity(app, keyEntity, {
    beforeAdd: async ({ app: a, caller }, values) => void (await callersKeyCabinet(a, caller, String(values.deviceId))),
    beforeEdit: async ({ app: a, caller }, values, existing) => {
      const moved = (values.deviceId !== undefined && values.deviceId !== existing.device_id) || (values.slotNo !== undefined && Number(values.slotNo) !== Number(existing.slot_no));
      if (values.deviceId !== undefined) await callersKeyCabinet(a, caller, String(values.deviceId));
      // a key that is out comes back to its own slot
      if (moved && Number(existing.status) === KeyStatus.taken) refuse('keys.mustReturn');
    },
    // the roles that gave the deleted keys give them no more
    deleteLinked: async (trx, ids) => {
      await trx.deleteFrom('sys_device_role_key').where('key_id', 'in', ids).execute();
    },
  });
  // a key person takes the keys the roles listing them give: only a manager of those keys' cabinets names one
  const peopleKeys = (a: FastifyInstance, peopleIds: readonly string[]) => keysReachingPeople(a, peopleIds);
  registerEntity(app, keyPeopleEntity, {
    beforeAdd: async ({ app: a, caller }, values) => assertMayHandKeys(a, caller, await peopleKeys(a, [String(values.peopleId)])),
    beforeEdit: async ({ app: a, caller }, values, existing) => {
      if (values.peopleId === undefined || values.peopleId === existing.people_id) return;
      await assertMayHandKeys(a, caller, await peopleKeys(a, [String(existing.people_id), String(values.peopleId)]));
    },
    beforeDelete: async ({ app: a, caller }, rows) => assertMayHandKeys(a, caller, await peopleKeys(a, rows.map((r) => String(r.people_id)))),
  });
  // a key role gives its keys to its people: it is changed only by a manager of every key it gives, before and after
  const roleKeys = async (a: FastifyInstance, roleIds: readonly string[]) =>
    roleIds.length === 0 ? [] : (await a.db.selectFrom('sys_device_role_key').select('key_id').where('role_id', 'in', [...roleIds]).execute()).map((r) => r.key_id);
  registerEntity(app, keyRoleEntity, {
    beforeAdd: async ({ app: a, caller }, values) => assertMayHandKeys(a, caller, linkIds(values.keyIds)),
    beforeEdit: async ({ app: a, caller }, values, existing) => {
      const before = await roleKeys(a, [String(existing.id)]);
      await assertMayHandKeys(a, caller, [...before, ...(values.keyIds === undefined ? [] : linkIds(values.keyIds))]);
    },
    beforeDelete: async ({ app: a, caller }, rows) => assertMayHandKeys(a, caller, await roleKeys(a, rows.map((r) => String(r.id)))),
  });

  app.get(
    KeyPath.history,
    { schema: { tags, summary: 'A key’s takes and returns, newest first', querystring: z.object({ id: z.string().regex(ID_PATTERN) }) }, config: { permission: permissionCode(keyEntity, 'list') } },
    async (request, reply) => {
      const key = await keys.findById(callerOf(request), request.query.id);
      if (!key) refuse('keys.keyNotFound');
      const rows = await app.db
        .selectFrom('sys_key_record as r')
        .leftJoin('sys_people as p', 'p.id', 'r.people_id')
        .select(['r.id', 'r.take_time', 'r.return_time', 'r.people_id', 'p.name', 'r.id_card', 'r.overdue_time'])
        .where('r.key_id', '=', String(key.id))
        .orderBy('r.take_time', 'desc')
        .limit(KEY_HISTORY_LIMIT)
        .execute();
      const history: KeyHistoryRow[] = rows.map((r) => ({ id: r.id, takeTime: r.take_time, returnTime: r.return_time, peopleId: r.people_id, peopleName: r.name ?? null, idCard: r.id_card, overdueTime: r.overdue_time }));
      return reply.ok(history);
    },
  );
};
