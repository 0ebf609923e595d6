import { AccountPath, type Envelope, type SmsBody } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

export function sendSmsCode(body: SmsBody): Promise<Envelope<null>> {
  return http.post<null>(AccountPath.sms, body);
}

export function useSendSmsCode() {
  return useMutation({ mutationFn: sendSmsCode });
}
