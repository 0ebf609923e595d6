import { AccountPath, type Envelope, type LoginResult, type PhoneLoginBody } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** A wrong or expired SMS code comes back as an envelope with success false. */
export function phoneLogin(body: PhoneLoginBody): Promise<Envelope<LoginResult>> {
  return http.post<LoginResult>(AccountPath.phoneLogin, body);
}

export function usePhoneLogin() {
  return useMutation({ mutationFn: phoneLogin });
}
