import { AccountPath, type ActivationStatus, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { activationStatusQuery } from './get-activation-status.ts';

export function activate(code: string): Promise<Envelope<ActivationStatus>> {
  return http.post<ActivationStatus>(AccountPath.activate, { code });
}

export function useActivate() {
  const client = useQueryClient();
  return useMutation({ mutationFn: activate, onSuccess: () => client.invalidateQueries({ queryKey: activationStatusQuery.queryKey }) });
}
