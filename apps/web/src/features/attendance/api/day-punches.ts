import { AttendancePath, type AttendancePunchRow } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export const dayPunchesKey = ['attendance', 'punches'] as const;

export async function getDayPunches(id: string): Promise<AttendancePunchRow[]> {
  return unwrap(await http.get<AttendancePunchRow[]>(AttendancePath.punches, { id }));
}

export const dayPunchesQuery = (id: string) => queryOptions({ queryKey: [...dayPunchesKey, id], queryFn: () => getDayPunches(id) });

/** GET /device/attendance/punches?id=: the punches a day was read from, duplicates included. */
export function useDayPunches(id: string) {
  return useQuery(dayPunchesQuery(id));
}
