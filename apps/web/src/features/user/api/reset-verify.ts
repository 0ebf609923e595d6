import { AccountPath, type Envelope, type ResetVerifyResult } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

export function resetVerify(body: { username: string; smscode: string }): Promise<Envelope<ResetVerifyResult>> {
  return http.post<ResetVerifyResult>(AccountPath.resetVerify, body);
}

export function useResetVerify() {
  return useMutation({ mutationFn: resetVerify });
}
