import { AccountPath, type Envelope, type ResetPasswordBody } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

export function resetSetPassword(body: ResetPasswordBody): Promise<Envelope<null>> {
  return http.post<null>(AccountPath.resetPassword, body);
}

export function useResetSetPassword() {
  return useMutation({ mutationFn: resetSetPassword });
}
