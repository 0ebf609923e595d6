import { VisitorPath, type Envelope, type VisitorLoginBody, type VisitorLoginResult } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

export function visitorLogin(body: VisitorLoginBody): Promise<Envelope<VisitorLoginResult>> {
  return http.post<VisitorLoginResult>(VisitorPath.login, body);
}

export function useVisitorLogin() {
  return useMutation({ mutationFn: visitorLogin });
}
