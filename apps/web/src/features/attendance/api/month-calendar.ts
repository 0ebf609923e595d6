import { AttendancePath, type AttendanceCalendarDay } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export const calendarKey = ['attendance', 'calendar'] as const;

export async function getMonthCalendar(peopleId: string, month: string): Promise<AttendanceCalendarDay[]> {
  return unwrap(await http.get<AttendanceCalendarDay[]>(AttendancePath.calendar, { peopleId, month }));
}

export const monthCalendarQuery = (peopleId: string, month: string) => queryOptions({ queryKey: [...calendarKey, peopleId, month], queryFn: () => getMonthCalendar(peopleId, month) });

/** GET /device/attendanceMonth/calendar: a person's days of a month. */
export function useMonthCalendar(peopleId: string, month: string) {
  return useQuery(monthCalendarQuery(peopleId, month));
}
