import { AccountPath, type Envelope, type ResetAccountResult } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** Step 1: an unknown account is refused with 'Account dose not exist!'. */
export function resetFindAccount(username: string): Promise<Envelope<ResetAccountResult>> {
  return http.post<ResetAccountResult>(AccountPath.resetAccount, { username });
}

export function useResetFindAccount() {
  return useMutation({ mutationFn: resetFindAccount });
}
