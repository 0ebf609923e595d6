import { LockOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { PasswordStrengthMeter, sameAsRule, strongPasswordRule } from '../../../shared/ui/index.ts';
import styles from '../pages/account.module.css';
import { CodeCountdownButton } from './code-countdown-button.tsx';

/**
 * A new password with its strength and its confirmation, as the registration and reset forms of SPEC section 5 ask
 * for them: placeholders instead of labels, fields `password` and `confirmPassword`.
 */
export function AccountPasswordFields({ placeholder, confirmPlaceholder }: { placeholder: string; confirmPlaceholder: string }) {
  const { t } = useTranslation();
  const password = (Form.useWatch('password', Form.useFormInstance()) as string | undefined) ?? '';
  return (
    <>
      <Form.Item
        name="password"
        rules={[{ required: true, message: t('register.passwordRule') }, strongPasswordRule(t('register.passwordRule'))]}
      >
        <Input.Password prefix={<LockOutlined aria-hidden />} placeholder={placeholder} aria-label={placeholder} autoComplete="new-password" />
      </Form.Item>
      <PasswordStrengthMeter password={password} />
      <Form.Item
        name="confirmPassword"
        dependencies={['password']}
        rules={[{ required: true, message: t('register.confirmRequired') }, sameAsRule(t('register.mismatch'))]}
      >
        <Input.Password prefix={<LockOutlined aria-hidden />} placeholder={confirmPlaceholder} aria-label={confirmPlaceholder} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

/** A six-digit SMS code with the button that sends it and counts down the minute before the next. */
export function SmsCodeField({ name, placeholder, onSend }: { name: string; placeholder: string; onSend: () => Promise<boolean> }) {
  const { t } = useTranslation();
  return (
    <div className={styles.codeRow}>
      <Form.Item name={name} className={styles.codeInput} rules={[{ required: true, pattern: /^\d{6}$/, message: t('register.smsCodeRequired') }]}>
        <Input prefix={<SafetyCertificateOutlined aria-hidden />} placeholder={placeholder} aria-label={placeholder} autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
      </Form.Item>
      <CodeCountdownButton onSend={onSend} />
    </div>
  );
}
