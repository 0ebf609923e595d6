import { attendanceDayEntity, attendanceMonthEntity, AttendancePath, type AttendanceCorrection, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { crudKeys } from '../../../shared/crud/index.ts';
import { calendarKey } from './month-calendar.ts';

/** PUT /device/attendance/correct: a day's result set by an operator, with a reason; a refusal is `success: false`. */
export function correctDay(body: AttendanceCorrection): Promise<Envelope<null>> {
  return http.put<null>(AttendancePath.correct, body);
}

/** Corrects a day; the days, the months and the calendars are read again. */
export function useCorrectDay() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: correctDay,
    onSuccess: (envelope) => {
      if (!envelope.success) return;
      for (const entity of [attendanceDayEntity, attendanceMonthEntity]) void client.invalidateQueries({ queryKey: crudKeys.all(entity) });
      void client.invalidateQueries({ queryKey: calendarKey });
    },
  });
}
