import { AccountPath, type Envelope, type ResetAccountResult } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

export function resetSendCode(username: string): Promise<Envelope<ResetAccountResult>> {
  return http.post<ResetAccountResult>(AccountPath.resetSendCode, { username });
}

export function useResetSendCode() {
  return useMutation({ mutationFn: resetSendCode });
}
