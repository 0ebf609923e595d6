import { AccountPath, type Envelope, type SmsBody } from '@isps/contract';
import type { FormInstance } from 'antd';
import { feedback, http } from '../../../shared/api/index.ts';
import type { CodeCaptcha } from '../components/code-captcha.tsx';

export function sendSmsCode(body: SmsBody): Promise<Envelope<null>> {
  return http.post<null>(AccountPath.sms, body);
}

/**
 * Sends a code to the phone number in a form's `field` once that field (and the captcha, while it is on) is valid, and tells the person how it went
 * (`titles`: of the refusal and of the sent notice). True when the code is on its way: the countdown then starts.
 */
export async function sendCodeToField(
  form: FormInstance,
  field: string,
  smsmode: SmsBody['smsmode'],
  titles: { failed: string; sent: string },
  captcha: CodeCaptcha,
  tenant?: string,
): Promise<boolean> {
  const mobile = await form
    .validateFields([field])
    .then((values: Record<string, string>) => String(values[field] ?? '').trim())
    .catch(() => null);
  const typed = await captcha.read(form);
  if (!mobile || typed === null) return false;
  const answer = await sendSmsCode({ mobile, smsmode, ...typed, ...(tenant ? { tenant } : {}) }).catch(() => null);
  // the server has used the captcha up, whatever it answered
  if (typed) captcha.renew(form);
  if (!answer) return false;
  if (!answer.success) {
    feedback().notify('error', titles.failed, answer.message, 4);
    return false;
  }
  feedback().notify('success', titles.sent, answer.message, 3);
  return true;
}
