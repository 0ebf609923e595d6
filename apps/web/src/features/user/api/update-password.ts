import { ApiPath, type Envelope, type UpdatePasswordBody } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

export function updatePassword(body: UpdatePasswordBody): Promise<Envelope<unknown>> {
  return http.post(ApiPath.updatePassword, body);
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword });
}
