import { passwordStrength, type PasswordStrength } from '@isps/contract';
import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '../../locales/en-US.ts';

const look: Record<PasswordStrength, { percent: number; color: string; key: MessageKey }> = {
  low: { percent: 33, color: '#ff4d4f', key: 'register.strengthLow' },
  middle: { percent: 66, color: '#faad14', key: 'register.strengthMiddle' },
  high: { percent: 100, color: '#52c41a', key: 'register.strengthHigh' },
};

/** SPEC section 5: the strength of a new password, low, middle or high. */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  if (!password) return null;
  const level = look[passwordStrength(password)];
  return (
    <div role="status" aria-live="polite" style={{ marginTop: -12, marginBottom: 12 }}>
      <Progress percent={level.percent} strokeColor={level.color} showInfo={false} size="small" />
      <span style={{ color: level.color, fontSize: 12 }}>{t('register.strength', { level: t(level.key) })}</span>
    </div>
  );
}
