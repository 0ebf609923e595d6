import { AccountPath, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { twoFactorStatusQuery } from './get-two-factor-status.ts';

/** Needs a current code, so a session left open is not enough to switch it off. */
export function twoFactorDisable(code: string): Promise<Envelope<null>> {
  return http.post<null>(AccountPath.twoFactorDisable, { code });
}

export function useTwoFactorDisable() {
  const client = useQueryClient();
  return useMutation({ mutationFn: twoFactorDisable, onSuccess: () => client.invalidateQueries({ queryKey: twoFactorStatusQuery().queryKey }) });
}
