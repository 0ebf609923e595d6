import { attendanceDayEntity, attendanceMonthEntity, AttendancePath, type AttendanceRecomputed, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { crudKeys } from '../../../shared/crud/index.ts';
import { calendarKey } from './month-calendar.ts';

/** POST /device/attendanceMonth/recompute: a month's days and statistics computed again. */
export function recomputeMonth(month: string): Promise<Envelope<AttendanceRecomputed>> {
  return http.post<AttendanceRecomputed>(AttendancePath.recompute, { month });
}

/** Recomputes a month; the days, the months and the calendars are read again. */
export function useRecomputeMonth() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: recomputeMonth,
    onSuccess: (envelope) => {
      if (!envelope.success) return;
      for (const entity of [attendanceDayEntity, attendanceMonthEntity]) void client.invalidateQueries({ queryKey: crudKeys.all(entity) });
      void client.invalidateQueries({ queryKey: calendarKey });
    },
  });
}
