import { AccountPath, type Envelope, type TwoFactorEnrollment } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** A new secret for the caller's authenticator; it takes effect once confirmed with a code. */
export function twoFactorEnroll(): Promise<Envelope<TwoFactorEnrollment>> {
  return http.post<TwoFactorEnrollment>(AccountPath.twoFactorEnroll, {});
}

export function useTwoFactorEnroll() {
  return useMutation({ mutationFn: twoFactorEnroll });
}
