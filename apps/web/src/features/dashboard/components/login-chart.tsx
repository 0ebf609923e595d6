import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import styles from './login-chart.module.css';

/** A small bar chart of daily logins; each bar carries its number for screen readers. */
export function LoginChart({ days }: { days: { date: string; count: number }[] }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...days.map((d) => d.count));
  return (
    <ol className={styles.chart}>
      {days.map(({ date, count }) => (
        <li key={date} className={styles.column} aria-label={t('dashboard.loginsOnDay', { day: date, count })}>
          <span className={styles.value} aria-hidden>
            {count}
          </span>
          <span className={styles.track} aria-hidden>
            <span className={styles.bar} style={{ height: `${(count / max) * 100}%` }} />
          </span>
          <span className={styles.label} aria-hidden>
            {dayjs(date).format('MM-DD')}
          </span>
        </li>
      ))}
    </ol>
  );
}
