import { DEVICE_ROLE_TARGETS, DEVICE_ROLE_TYPE_DICT, DEVICE_ROLE_TYPES, DeviceRolePath, deviceRoleEntity, ID_PATTERN, permissionCode, type DeviceRoleOption } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { linkOf, registerEntity } from '../../platform/crud/index.ts';
import { dictionaryOptions } from '../../platform/dictionaries.ts';
import { AppError } from '../../platform/envelope.ts';
import { assertMayBindDeviceTargets, bindableDeviceTargets, type DeviceTargets } from '../../platform/grants.ts';
import { linkIds } from '../../platform/crud/values.ts';

const tags = ['device'];

/** The link fields that bind targets. */
const TARGETS = ['areaIds', 'deviceIds', 'doorIds'] as const;

/** What the given device roles bind now. */
async function boundTargets(app: FastifyInstance, roleIds: readonly string[]): Promise<DeviceTargets> {
  const out = { areaIds: [] as string[], deviceIds: [] as string[], doorIds: [] as string[] };
  if (roleIds.length === 0) return out;
  for (const name of TARGETS) {
    const { table, ownerColumn, targetColumn } = linkOf(deviceRoleEntity, name);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const rows = await (app.db as any).selectFrom(table).select(`${targetColumn} as target`).where(ownerColumn, 'in', roleIds).execute();
    out[name] = rows.map((r: { target: string }) => r.target);
  }
  return out;
}

const merged = (a: DeviceTargets, b: DeviceTargets): DeviceTargets => ({
  areaIds: [...a.areaIds, ...b.areaIds],
  deviceIds: [...a.deviceIds, ...b.deviceIds],
  doorIds: [...a.doorIds, ...b.doorIds],
});

/** The targets of written values; a link field left out keeps what `current` binds. */
function targetsOfValues(values: Record<string, unknown>, current: DeviceTargets): DeviceTargets {
  const pick = (name: keyof DeviceTargets) => (Object.hasOwn(values, name) ? linkIds(values[name]) : [...current[name]]);
  return { areaIds: pick('areaIds'), deviceIds: pick('deviceIds'), doorIds: pick('doorIds') };
}

/** Device roles: the declared screen (grants checked in platform/grants.ts) and the origin console's two pickers. */
export const deviceRoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const roles = registerEntity(app, deviceRoleEntity, {
    beforeAdd: (ctx, values) => assertMayBindDeviceTargets(app, ctx.caller, targetsOfValues(values, { areaIds: [], deviceIds: [], doorIds: [] })),
    // a changed role reaches its holders with everything it binds: both what it bound and what it will bind are checked
    beforeEdit: async (ctx, values, existing) => {
      const before = await boundTargets(app, [existing.id as string]);
      await assertMayBindDeviceTargets(app, ctx.caller, merged(before, targetsOfValues(values, before)));
    },
    beforeDelete: async (ctx, rows) => assertMayBindDeviceTargets(app, ctx.caller, await boundTargets(app, rows.map((r) => r.id as string))),
    // keys have no field yet: their links leave with their role
    deleteLinked: async (trx, ids) => {
      await trx.deleteFrom('sys_device_role_key').where('role_id', 'in', ids).execute();
    },
  });
  const list = permissionCode(deviceRoleEntity, 'list');

  app.get(
    DeviceRolePath.queryall,
    { schema: { tags, summary: 'Every device role of the caller’s tenant, for pickers', querystring: z.object({ roleType: z.enum(DEVICE_ROLE_TYPES).optional() }) }, config: { permission: list } },
    async (request, reply) => {
      let query = roles.scoped(callerOf(request)).clearSelect().select(['id', 'role_name', 'role_type']);
      if (request.query.roleType) query = query.where('role_type', '=', request.query.roleType);
      const rows = await query.orderBy('role_name').orderBy('id').limit(5000).execute();
      const types = await dictionaryOptions(app, DEVICE_ROLE_TYPE_DICT, request.lang);
      const typeText = (value: string) => types.find((t) => t.value === value)?.text ?? value;
      return reply.ok(rows.map((r): DeviceRoleOption => ({ id: r.id as string, roleName: r.role_name as string, roleType: r.role_type as string, roleType_dictText: typeText(r.role_type as string) })));
    },
  );

  app.get(
    DeviceRolePath.bindable,
    { schema: { tags, summary: 'The areas, devices or doors the caller may bind through a device role (null: any)', querystring: z.object({ target: z.enum(DEVICE_ROLE_TARGETS) }) }, config: { permission: list } },
    async (request, reply) => {
      const covered = await bindableDeviceTargets(app, callerOf(request));
      const ids = { area: covered?.areaIds, device: covered?.deviceIds, door: covered?.doorIds }[request.query.target];
      return reply.ok(ids ? [...ids] : null);
    },
  );

  app.get(
    DeviceRolePath.queryUserRole,
    { schema: { tags, summary: 'The ids of the device roles a user holds', querystring: z.object({ userid: z.string().regex(ID_PATTERN) }) }, config: { permission: list } },
    async (request, reply) => {
      const caller = callerOf(request);
      // only the caller's tenant's user, and only the caller's tenant's roles
      const user = await app.crudEntities.get('sys_user')?.findById(caller, request.query.userid);
      if (!user) throw new AppError('notFound', 'crud.notFound');
      const held = roles.scoped(caller).clearSelect().select('id');
      const rows = await app.db.selectFrom('sys_device_role_user').select('role_id').where('user_id', '=', user.id as string).where('role_id', 'in', held).execute();
      return reply.ok(rows.map((r) => r.role_id));
    },
  );
};
