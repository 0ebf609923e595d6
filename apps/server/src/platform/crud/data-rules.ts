import type { DataRuleCondition, EntityDeclaration } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { CurrentUser } from '../access.ts';
import { readableFields } from './values.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Eb = ExpressionBuilder<any, any>;

export interface ActiveRule {
  column: string;
  condition: DataRuleCondition;
  value: string;
}

/** A rule value with the caller's variables filled in: #{sys_user_code}, #{sys_org_code}, #{sys_tenant_id}. */
export function resolveRuleValue(value: string, caller: Pick<CurrentUser, 'username' | 'orgCode' | 'tenantId'>): string {
  return value
    .replaceAll('#{sys_user_code}', caller.username)
    .replaceAll('#{sys_org_code}', caller.orgCode ?? '')
    .replaceAll('#{sys_tenant_id}', caller.tenantId ?? '');
}

/**
 * The valid data rules the caller's roles (and group roles in their current group) hold on the menu that shows this entity (its `component`), with values
 * resolved. Rules naming a field the entity does not have are ignored: nothing but declared columns reaches SQL.
 */
export async function activeDataRules(app: FastifyInstance, entity: EntityDeclaration, who: CurrentUser): Promise<ActiveRule[]> {
  // an API key reads rows as its creator does: his rules, his variables, in the key's tenant
  const caller = who.apiKey ? { ...who, ...who.apiKey.creator } : who;
  // the system administrators see everything, as with tenants
  if (caller.systemAdmin) return [];
  const byRoles = app.db
    .selectFrom('sys_role_data_rule as rr')
    .innerJoin('sys_permission_data_rule as r', 'r.id', 'rr.rule_id')
    .innerJoin('sys_permission as p', 'p.id', 'rr.permission_id')
    .innerJoin('sys_user_role as ur', 'ur.role_id', 'rr.role_id')
    .select(['r.rule_column', 'r.rule_conditions', 'r.rule_value'])
    .where('ur.user_id', '=', caller.id)
    .where('p.component', '=', entity.component)
    .where('p.del_flag', '=', 0)
    .where('r.status', '=', '1');
  // group roles count in the group the caller works in (as their permissions do)
  const byGroupRoles = app.db
    .selectFrom('sys_depart_role_data_rule as drr')
    .innerJoin('sys_permission_data_rule as r', 'r.id', 'drr.rule_id')
    .innerJoin('sys_permission as p', 'p.id', 'drr.permission_id')
    .innerJoin('sys_depart_role_user as dru', 'dru.drole_id', 'drr.role_id')
    .innerJoin('sys_depart as d', 'd.id', 'drr.depart_id')
    .innerJoin('sys_user_depart as ud', (join) => join.onRef('ud.dep_id', '=', 'd.id').onRef('ud.user_id', '=', 'dru.user_id'))
    .select(['r.rule_column', 'r.rule_conditions', 'r.rule_value'])
    .where('dru.user_id', '=', caller.id)
    .where('d.org_code', '=', caller.orgCode ?? '')
    .where('d.del_flag', '=', 0)
    .where('p.component', '=', entity.component)
    .where('p.del_flag', '=', 0)
    .where('r.status', '=', '1');
  const rows = caller.orgCode ? await byRoles.union(byGroupRoles).execute() : await byRoles.distinct().execute();
  const fields = readableFields(entity);
  return rows.flatMap((r) => {
    const info = fields.get(r.rule_column);
    return info ? [{ column: info.column, condition: r.rule_conditions as DataRuleCondition, value: resolveRuleValue(r.rule_value, caller) }] : [];
  });
}

/** The rules as WHERE conditions (all must hold); values are always bound parameters. */
export function ruleConditions(rules: ActiveRule[]) {
  return (eb: Eb): Array<Expression<SqlBool>> =>
    rules.map((rule) => {
      switch (rule.condition) {
        case 'in': {
          const values = rule.value.split(',').map((v) => v.trim()).filter(Boolean);
          return values.length > 0 ? eb(rule.column, 'in', values) : sql<SqlBool>`1 = 0`;
        }
        case 'like':
          return eb(rule.column, 'like', `%${rule.value}%`);
        default: {
          const op = ({ eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as Record<string, string>)[rule.condition] as '=' | '<>' | '>' | '>=' | '<' | '<=';
          return eb(rule.column, op, rule.value);
        }
      }
    });
}
