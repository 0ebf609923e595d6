import { AccountPath, type Envelope, type RegisterBody } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** Refusals (taken name, email or phone; wrong code) come back as envelopes with success false. */
export function register(body: RegisterBody): Promise<Envelope<{ username: string; awaitingApproval?: boolean }>> {
  return http.post<{ username: string; awaitingApproval?: boolean }>(AccountPath.register, body);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
