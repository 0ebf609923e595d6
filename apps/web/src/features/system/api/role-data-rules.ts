import { DataRulePath, type Envelope } from '@isps/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export interface DataRuleChoice {
  id: string;
  ruleName: string;
  ruleColumn: string;
  ruleConditions: string;
  ruleValue: string;
  status: string;
}

export interface RoleDataRules {
  rules: DataRuleChoice[];
  granted: string[];
}

const key = (roleId: string, permissionId: string) => ['role-data-rules', roleId, permissionId] as const;

/** A menu's data rules and the ones the role holds (nothing to load until a menu is chosen). */
export function useRoleDataRules(roleId: string, permissionId: string | undefined) {
  return useQuery({
    queryKey: key(roleId, permissionId ?? ''),
    queryFn: async () => unwrap(await http.get<RoleDataRules>(DataRulePath.queryRoleDataRule, { roleId, permissionId: permissionId ?? '' })),
    enabled: Boolean(permissionId),
  });
}

export async function saveRoleDataRules(body: { roleId: string; permissionId: string; dataRuleIds: string[] }): Promise<Envelope<null>> {
  const envelope = await http.post<null>(DataRulePath.saveRoleDataRule, { ...body, dataRuleIds: body.dataRuleIds.join(',') });
  unwrap(envelope);
  return envelope;
}

export function useSaveRoleDataRules() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveRoleDataRules, onSuccess: (_d, v) => client.invalidateQueries({ queryKey: key(v.roleId, v.permissionId) }) });
}
