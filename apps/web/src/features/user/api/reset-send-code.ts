import { AccountPath, type Envelope, type ResetAccountResult, type ResetSendCodeBody } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** `captcha` and `checkKey`: the login captcha, while the server asks for it before a code is sent. */
export function resetSendCode(body: ResetSendCodeBody): Promise<Envelope<ResetAccountResult>> {
  return http.post<ResetAccountResult>(AccountPath.resetSendCode, body);
}

export function useResetSendCode() {
  return useMutation({ mutationFn: resetSendCode });
}
