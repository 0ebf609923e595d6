import { AccountPath, type TwoFactorStatus } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function getTwoFactorStatus(): Promise<TwoFactorStatus> {
  return unwrap(await http.get<TwoFactorStatus>(AccountPath.twoFactorStatus));
}

export const twoFactorStatusQuery = () => queryOptions({ queryKey: ['two-factor-status'], queryFn: getTwoFactorStatus });

export function useTwoFactorStatus(enabled: boolean) {
  return useQuery({ ...twoFactorStatusQuery(), enabled });
}
