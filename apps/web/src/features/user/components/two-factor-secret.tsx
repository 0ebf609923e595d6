import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from '../pages/account.module.css';

const SLOT = '\u0000';

/**
 * The authenticator key for typing it in by hand: in groups of four that never break across lines, so a phone does not
 * leave one character on a line of its own; the copy button copies it as one string.
 */
export function TwoFactorSecret({ secret, testId }: { secret: string; testId?: string }) {
  const { t } = useTranslation();
  const [before = '', after = ''] = t('login.secondFactorSecret', { secret: SLOT }).split(SLOT);
  const groups = secret.match(/.{1,4}/g) ?? [];
  return (
    <div className={styles.secret} data-testid={testId}>
      {before}
      <Typography.Text copyable={{ text: secret }} className={styles.secretKey}>
        {groups.map((group, i) => (
          <span key={i} className={styles.secretGroup}>
            {group}
          </span>
        ))}
      </Typography.Text>
      {after}
    </div>
  );
}
