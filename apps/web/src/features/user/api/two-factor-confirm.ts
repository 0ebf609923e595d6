import { AccountPath, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { twoFactorStatusQuery } from './get-two-factor-status.ts';

export function twoFactorConfirm(code: string): Promise<Envelope<null>> {
  return http.post<null>(AccountPath.twoFactorConfirm, { code });
}

export function useTwoFactorConfirm() {
  const client = useQueryClient();
  return useMutation({ mutationFn: twoFactorConfirm, onSuccess: () => client.invalidateQueries({ queryKey: twoFactorStatusQuery().queryKey }) });
}
