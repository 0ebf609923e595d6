import { useTranslation } from 'react-i18next';
import styles from './full-page-spin.module.css';

/** A page that is loading: antd's large spinner drawn without antd (it shows while antd itself loads). */
export function FullPageSpin() {
  const { t } = useTranslation();
  return (
    <div className={styles.page} role="status" aria-live="polite">
      <div className={styles.spin}>
        <span className={styles.dots} aria-hidden>
          <i />
          <i />
          <i />
          <i />
        </span>
        {t('app.loading')}
      </div>
    </div>
  );
}
