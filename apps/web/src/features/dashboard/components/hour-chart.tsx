import { useTranslation } from 'react-i18next';
import styles from './hour-chart.module.css';

/** Today's events per hour (0–23) as bars; every third hour is labelled, each bar names its count for screen readers. */
export function HourChart({ hours }: { hours: number[] }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...hours);
  return (
    <ol className={styles.chart}>
      {hours.map((count, hour) => (
        <li key={hour} className={styles.column} aria-label={t('dashboard.eventsAtHour', { hour: String(hour).padStart(2, '0'), count })} title={String(count)}>
          <span className={styles.track} aria-hidden>
            <span className={styles.bar} style={{ height: `${(count / max) * 100}%` }} />
          </span>
          <span className={styles.label} aria-hidden>
            {hour % 3 === 0 ? String(hour).padStart(2, '0') : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}
