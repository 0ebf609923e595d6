import { AccountPath, type Envelope, type LoginResult } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** Completes a login that answered secondFactorRequired. */
export function twoFactorLogin(body: { challenge: string; code: string }): Promise<Envelope<LoginResult>> {
  return http.post<LoginResult>(AccountPath.twoFactorLogin, body);
}

export function useTwoFactorLogin() {
  return useMutation({ mutationFn: twoFactorLogin });
}
