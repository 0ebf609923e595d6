import { ATTENDANCE_STATUSES, type AttendanceStatus } from '@isps/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Each result's colour, the same in the list, the calendar and the correction dialog. */
export const STATUS_COLORS: Record<AttendanceStatus, string> = { 1: 'green', 2: 'orange', 3: 'gold', 4: 'red', 5: 'purple', 6: 'blue', 7: 'default' };

const NAMES = new Map<number, string>(ATTENDANCE_STATUSES.map(([name, value]) => [value, name]));

/** The label key of a result. */
export const statusLabel = (status: number) => `attendance.status.${NAMES.get(status) ?? 'normal'}`;

export function StatusTag({ status }: { status: AttendanceStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLORS[status]}>{t(statusLabel(status))}</Tag>;
}
