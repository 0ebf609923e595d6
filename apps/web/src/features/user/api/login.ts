import { ApiPath, type Envelope, type LoginBody, type PasswordLoginResult } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** Refusals (wrong captcha or credentials, frozen, locked) come back as envelopes with success false. */
export function login(body: LoginBody): Promise<Envelope<PasswordLoginResult>> {
  return http.post<PasswordLoginResult>(ApiPath.login, body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
