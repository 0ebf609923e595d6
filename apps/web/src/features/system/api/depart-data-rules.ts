import { DepartRolePath, type DataRuleChoices, type Envelope } from '@isps/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** one menu's rules of one owner */
type RuleKey = readonly [string, string, string];
const groupKey = (departId: string, permissionId: string): RuleKey => ['depart-data-rules', departId, permissionId];
const roleKey = (roleId: string, permissionId: string): RuleKey => ['depart-role-data-rules', roleId, permissionId];

async function post(path: string, body: Record<string, string>): Promise<Envelope<null>> {
  const envelope = await http.post<null>(path, body);
  unwrap(envelope);
  return envelope;
}

/** A menu's data rules and the ones the group may hand to its roles (nothing to load until a menu is chosen). */
export function departDataRulesQuery(departId: string, permissionId: string | undefined) {
  return queryOptions({
    queryKey: groupKey(departId, permissionId ?? ''),
    queryFn: async () => unwrap(await http.get<DataRuleChoices>(DepartRolePath.queryDepartDataRule, { departId, permissionId: permissionId ?? '' })),
    enabled: Boolean(permissionId),
  });
}

export function useSaveDepartDataRules(departId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ permissionId, dataRuleIds }: { permissionId: string; dataRuleIds: string[] }) =>
      post(DepartRolePath.saveDepartDataRule, { departId, permissionId, dataRuleIds: dataRuleIds.join(',') }),
    // the group's roles may have lost rules with it
    onSuccess: (_d, v) => Promise.all([client.invalidateQueries({ queryKey: groupKey(departId, v.permissionId) }), client.invalidateQueries({ queryKey: ['depart-role-data-rules'] })]),
  });
}

/** The group's data rules of a menu and the ones the group role holds. */
export function departRoleDataRulesQuery(roleId: string, permissionId: string | undefined) {
  return queryOptions({
    queryKey: roleKey(roleId, permissionId ?? ''),
    queryFn: async () => unwrap(await http.get<DataRuleChoices>(DepartRolePath.queryDeptRoleDataRule, { roleId, permissionId: permissionId ?? '' })),
    enabled: Boolean(permissionId),
  });
}

export function useSaveDepartRoleDataRules(roleId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ permissionId, dataRuleIds }: { permissionId: string; dataRuleIds: string[] }) =>
      post(DepartRolePath.saveDeptRoleDataRule, { roleId, permissionId, dataRuleIds: dataRuleIds.join(',') }),
    onSuccess: (_d, v) => client.invalidateQueries({ queryKey: roleKey(roleId, v.permissionId) }),
  });
}
