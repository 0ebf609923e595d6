import { AccountPath, type Envelope, type PasswordLoginResult } from '@isps/contract';
import { http } from '../../../shared/api/index.ts';

/** SPEC section 7: reads success, result.token and result.userInfo; or a second-factor challenge, as after a password. */
export function validateCasTicket(ticket: string, service: string): Promise<Envelope<PasswordLoginResult>> {
  return http.get<PasswordLoginResult>(AccountPath.casValidate, { ticket, service });
}
