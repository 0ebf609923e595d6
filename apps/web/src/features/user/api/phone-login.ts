import { AccountPath, type Envelope, type LoginResult, type PhoneLoginBody, type SecondFactorChallenge } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** A wrong or expired SMS code comes back as an envelope with success false; users with two-step verification get a challenge. */
export function phoneLogin(body: PhoneLoginBody): Promise<Envelope<LoginResult | SecondFactorChallenge>> {
  return http.post<LoginResult | SecondFactorChallenge>(AccountPath.phoneLogin, body);
}

export function usePhoneLogin() {
  return useMutation({ mutationFn: phoneLogin });
}
