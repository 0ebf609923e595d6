import { attendanceMonthEntity } from '@isps/contract';
import { CrudScreen } from '../../../shared/crud/index.ts';
import { monthExtension } from '../month/month-actions.tsx';

/** Monthly statistics: filter by group, person and month; recompute a month, export, and a person's calendar. */
export default function AttendanceMonthPage() {
  return <CrudScreen entity={attendanceMonthEntity} extension={monthExtension} />;
}
