import { ATTENDANCE_STATUSES, type AttendanceCalendarDay } from '@isps/contract';
import { Empty, Modal, Spin } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/ui/index.ts';
import { useMonthCalendar } from '../api/month-calendar.ts';
import { StatusTag, statusLabel } from '../status.tsx';
import styles from './calendar-dialog.module.css';

const NAMES = new Map<number, string>(ATTENDANCE_STATUSES.map(([name, value]) => [value, name]));

/** A person's month as a calendar, Monday first: each day coloured by its result, a corrected one marked. */
export function CalendarDialog({ peopleId, name, month, onClose }: { peopleId: string; name: string; month: string; onClose: () => void }) {
  const { t } = useTranslation();
  const calendar = useMonthCalendar(peopleId, month);
  const first = dayjs(`${month}-01`);
  const lead = (first.day() + 6) % 7;
  const byDay = new Map<string, AttendanceCalendarDay>((calendar.data ?? []).map((d) => [d.day, d]));
  const weekdays = Array.from({ length: 7 }, (_, i) => dayjs('2024-01-01').add(i, 'day').format('dd'));
  return (
    <Modal open title={t('attendanceMonth.calendarTitle', { name, month })} onCancel={onClose} footer={null} width={720} destroyOnHidden>
      {calendar.isError && !calendar.data ? (
        <LoadFailed onRetry={() => void calendar.refetch()} />
      ) : !calendar.data ? (
        <Spin />
      ) : calendar.data.length === 0 ? (
        <Empty />
      ) : (
        <>
          <div className={styles.grid} role="grid" aria-label={t('attendanceMonth.calendarTitle', { name, month })}>
            {weekdays.map((w) => (
              <div key={w} className={styles.head} role="columnheader">
                {w}
              </div>
            ))}
            {Array.from({ length: lead }, (_, i) => (
              <div key={`lead-${i}`} />
            ))}
            {Array.from({ length: first.daysInMonth() }, (_, i) => {
              const date = first.add(i, 'day').format('YYYY-MM-DD');
              const entry = byDay.get(date);
              const status = entry ? NAMES.get(entry.status) : undefined;
              return (
                <div key={date} className={`${styles.cell} ${status ? styles[status] : ''}`} role="gridcell" data-day={date} data-status={entry?.status ?? ''}>
                  <span className={styles.day}>
                    {i + 1}
                    {entry?.corrected ? ' ✎' : ''}
                  </span>
                  {entry ? <span className={styles.label}>{t(statusLabel(entry.status))}</span> : null}
                </div>
              );
            })}
          </div>
          <div className={styles.legend}>
            {ATTENDANCE_STATUSES.map(([, value]) => (
              <StatusTag key={value} status={value} />
            ))}
          </div>
        </>
      )}
    </Modal>
  );
}
