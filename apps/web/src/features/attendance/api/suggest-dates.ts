import { AttendancePath, type AttendanceSuggestion } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** GET /device/oaRule/suggest?year=: China's festival days off and swapped working days of a year. */
export async function suggestDates(year: number): Promise<AttendanceSuggestion> {
  return unwrap(await http.get<AttendanceSuggestion>(AttendancePath.suggest, { year }));
}

/** Asked when the administrator presses "Suggest dates": nothing is cached, the answer fills the form once. */
export function useSuggestDates() {
  return useMutation({ mutationFn: suggestDates });
}
