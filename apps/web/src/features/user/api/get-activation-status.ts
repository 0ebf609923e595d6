import { AccountPath, type ActivationStatus } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function getActivationStatus(): Promise<ActivationStatus> {
  return unwrap(await http.get<ActivationStatus>(AccountPath.activationStatus));
}

export const activationStatusQuery = queryOptions({ queryKey: ['activation-status'], queryFn: getActivationStatus });

export function useActivationStatus() {
  return useQuery(activationStatusQuery);
}
