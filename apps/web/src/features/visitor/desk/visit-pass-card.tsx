import type { VisitPass } from '@isps/contract';
import { QRCode } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './desk.module.css';

/** Minutes are what a pass needs: `yyyy-MM-dd HH:mm`. */
const minutes = (time: string) => time.slice(0, 16);

/** The window of a visit as one line; the end drops its date when it is the start's day. */
export function windowText(startTime: string, endTime: string): string {
  const sameDay = startTime.slice(0, 10) === endTime.slice(0, 10);
  return `${minutes(startTime)} – ${sameDay ? endTime.slice(11, 16) : minutes(endTime)}`;
}

/**
 * The visitor's pass: name, host, window, doors and a QR code of the visit id (what a door or guard scans). Printed
 * alone (desk.module.css hides the rest of the page when printing).
 */
export function VisitPassCard({ pass }: { pass: VisitPass }) {
  const { t } = useTranslation();
  return (
    <section className={styles.pass} data-testid="visit-pass" aria-label={t('visitorDesk.passTitle')}>
      <div className={styles.passText}>
        <p className={styles.passTitle}>{t('visitorDesk.passTitle')}</p>
        <p className={styles.passName}>{pass.visitorName}</p>
        <p className={styles.passRow}>
          <span className={styles.passLabel}>{t('visit.field.hostId')}</span>
          {pass.hostName}
        </p>
        <p className={styles.passRow}>
          <span className={styles.passLabel}>{t('visitorDesk.window')}</span>
          {windowText(pass.startTime, pass.endTime)}
        </p>
        {pass.doors.length > 0 ? (
          <p className={styles.passRow}>
            <span className={styles.passLabel}>{t('visit.field.doorIds')}</span>
            {pass.doors.join(t('visitorDesk.doorSeparator'))}
          </p>
        ) : null}
      </div>
      <div className={styles.passCode}>
        <QRCode type="svg" value={pass.visitId} size={152} bordered={false} errorLevel="M" aria-label={t('visitorDesk.qrLabel')} data-testid="visit-pass-qr" />
        <span className={styles.passId}>{pass.visitId}</span>
      </div>
    </section>
  );
}
