import { AccountPath, type ActivationStatus } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { setSiteTimeZone } from '../../../shared/time/index.ts';

export async function getActivationStatus(): Promise<ActivationStatus> {
  const status = unwrap(await http.get<ActivationStatus>(AccountPath.activationStatus));
  // the page is read before a sign-in names the site's zone: its answer names it
  if (status.timeZone) setSiteTimeZone(status.timeZone);
  return status;
}

export const activationStatusQuery = queryOptions({ queryKey: ['activation-status'], queryFn: getActivationStatus });

export function useActivationStatus() {
  return useQuery(activationStatusQuery);
}
