import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The active users of a tenant who hold any of `codes` (through their roles, or the group roles of their current
 * group): who is told about the tenant's devices and doors.
 */
export async function tenantUsersHolding(db: Kysely<Database>, tenantId: string, codes: readonly string[]): Promise<string[]> {
  const permissionIds = db.selectFrom('sys_permission').select('id').where('perms', 'in', [...codes]).where('del_flag', '=', 0);
  const byRoles = db.selectFrom('sys_user_role as ur').innerJoin('sys_role_permission as rp', 'rp.role_id', 'ur.role_id').select('ur.user_id').where('rp.permission_id', 'in', permissionIds);
  const byGroupRoles = db
    .selectFrom('sys_depart_role_user as dru')
    .innerJoin('sys_depart_role as dr', 'dr.id', 'dru.drole_id')
    .innerJoin('sys_depart_role_permission as drp', (join) => join.onRef('drp.role_id', '=', 'dr.id').onRef('drp.depart_id', '=', 'dr.depart_id'))
    .innerJoin('sys_depart as d', 'd.id', 'dr.depart_id')
    .innerJoin('sys_user_depart as ud', (join) => join.onRef('ud.dep_id', '=', 'd.id').onRef('ud.user_id', '=', 'dru.user_id'))
    .innerJoin('sys_depart_permission as dp', (join) => join.onRef('dp.depart_id', '=', 'd.id').onRef('dp.permission_id', '=', 'drp.permission_id'))
    .innerJoin('sys_user as gu', 'gu.id', 'dru.user_id')
    .select('dru.user_id')
    .whereRef('gu.org_code', '=', 'd.org_code')
    .where('d.del_flag', '=', 0)
    .where('drp.permission_id', 'in', permissionIds);
  const rows = await db
    .selectFrom('sys_user as u')
    .select('u.id')
    .where('u.tenant_id', '=', tenantId)
    .where('u.del_flag', '=', 0)
    .where('u.status', '=', 1)
    .where((eb) => eb.or([eb('u.id', 'in', byRoles), eb('u.id', 'in', byGroupRoles)]))
    .execute();
  return rows.map((r) => r.id);
}
