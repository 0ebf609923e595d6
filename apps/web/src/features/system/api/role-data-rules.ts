import { DataRulePath, type DataRuleChoices, type Envelope } from '@isps/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** one menu's rules of one owner */
type RuleKey = readonly [string, string, string];
const key = (roleId: string, permissionId: string): RuleKey => ['role-data-rules', roleId, permissionId];

/** A menu's data rules and the ones the role holds (nothing to load until a menu is chosen). */
export function roleDataRulesQuery(roleId: string, permissionId: string | undefined) {
  return queryOptions({
    queryKey: key(roleId, permissionId ?? ''),
    queryFn: async () => unwrap(await http.get<DataRuleChoices>(DataRulePath.queryRoleDataRule, { roleId, permissionId: permissionId ?? '' })),
    enabled: Boolean(permissionId),
  });
}

export async function saveRoleDataRules(body: { roleId: string; permissionId: string; dataRuleIds: string[] }): Promise<Envelope<null>> {
  const envelope = await http.post<null>(DataRulePath.saveRoleDataRule, { ...body, dataRuleIds: body.dataRuleIds.join(',') });
  unwrap(envelope);
  return envelope;
}

export function useSaveRoleDataRules(roleId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { permissionId: string; dataRuleIds: string[] }) => saveRoleDataRules({ roleId, ...body }),
    onSuccess: (_d, v) => client.invalidateQueries({ queryKey: key(roleId, v.permissionId) }),
  });
}
