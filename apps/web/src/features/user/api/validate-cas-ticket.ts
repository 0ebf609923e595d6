import { AccountPath, type Envelope, type LoginResult } from '@isps/contract';
import { http } from '../../../shared/api/index.ts';

/** SPEC section 7: reads success, result.token and result.userInfo. */
export function validateCasTicket(ticket: string, service: string): Promise<Envelope<LoginResult>> {
  return http.get<LoginResult>(AccountPath.casValidate, { ticket, service });
}
