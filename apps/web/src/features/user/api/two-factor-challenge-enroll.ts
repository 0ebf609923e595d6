import { AccountPath, type TwoFactorEnrollment } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** An administrator who must use two-step verification but has no authenticator yet gets a secret inside the login. */
export async function twoFactorChallengeEnroll(challenge: string): Promise<TwoFactorEnrollment> {
  return unwrap(await http.post<TwoFactorEnrollment>(AccountPath.twoFactorChallengeEnroll, { challenge }));
}

export const challengeEnrollQuery = (challenge: string) =>
  queryOptions({ queryKey: ['two-factor-enroll', challenge], queryFn: () => twoFactorChallengeEnroll(challenge), staleTime: Infinity, gcTime: 0, retry: false });

export function useChallengeEnroll(challenge: string, enabled: boolean) {
  return useQuery({ ...challengeEnrollQuery(challenge), enabled });
}
