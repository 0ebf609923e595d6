import { VisitorPath, type Envelope, type VisitorInfo, type VisitorRegisterBody } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

export function visitorRegister(body: VisitorRegisterBody): Promise<Envelope<VisitorInfo>> {
  return http.post<VisitorInfo>(VisitorPath.register, body);
}

export function useVisitorRegister() {
  return useMutation({ mutationFn: visitorRegister });
}
