import { attendanceDayEntity } from '@isps/contract';
import { CrudScreen } from '../../../shared/crud/index.ts';
import { dayExtension } from '../days/day-actions.tsx';

/** Daily results: filter by group, person and month; each day's punches and its correction. */
export default function AttendancePage() {
  return <CrudScreen entity={attendanceDayEntity} extension={dayExtension} />;
}
