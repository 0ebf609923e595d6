import { DoorPath, type DoorStatusRow } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function getDoorStatus(): Promise<DoorStatusRow[]> {
  return unwrap(await http.get<DoorStatusRow[]>(DoorPath.status));
}

export const doorStatusKey = ['device', 'doorStatus'] as const;

export const doorStatusQuery = () => queryOptions({ queryKey: doorStatusKey, queryFn: getDoorStatus });

/** GET /sysDoor/status: every door of the caller's tenant with its state and its device's presence. */
export function useDoorStatus() {
  return useQuery(doorStatusQuery());
}
