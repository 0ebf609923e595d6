import { Card, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './clock.module.css';

/** A live clock in the chosen language and the browser's time zone. */
export default function ClockPage() {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const language = i18n.language;
  const date = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long', day: 'numeric' }).format(now);
  const weekday = new Intl.DateTimeFormat(language, { weekday: 'long' }).format(now);

  return (
    <Card variant="borderless" className={styles.card}>
      <time dateTime={now.toISOString()} className={styles.clock}>
        <span className={styles.time} aria-live="off">
          {dayjs(now).format('HH:mm:ss')}
        </span>
        <span className={styles.date}>
          {date} {weekday}
        </span>
      </time>
      <Typography.Text type="secondary">{t('clock.timeZone', { zone })}</Typography.Text>
    </Card>
  );
}
