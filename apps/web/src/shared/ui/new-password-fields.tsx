import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { PasswordStrengthMeter } from './password-strength.tsx';
import { sameAsRule, strongPasswordRule } from './password-rules.ts';

export interface NewPasswordFieldsProps {
  /** a field holding the old password: the new one must differ from it */
  differentFrom?: string;
  /** show the strength of the new password under it */
  strength?: boolean;
  autoFocus?: boolean;
  onPressEnter?: () => void;
}

/**
 * The new password and its confirmation, inside a Form (fields `password` and `confirmpassword`), with the rules of
 * SPEC section 5: required, strong, different from the old one when asked, and the two entries equal.
 */
export function NewPasswordFields({ differentFrom, strength = false, autoFocus, onPressEnter }: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const password = (Form.useWatch('password', form) as string | undefined) ?? '';
  return (
    <>
      <Form.Item
        name="password"
        label={t('password.new')}
        dependencies={differentFrom ? [differentFrom] : undefined}
        rules={[
          { required: true, message: t('password.newRequired') },
          strongPasswordRule(t('password.weak')),
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !differentFrom || !value || value !== getFieldValue(differentFrom) ? Promise.resolve() : Promise.reject(new Error(t('password.sameAsOld'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" autoFocus={autoFocus} />
      </Form.Item>
      {strength ? <PasswordStrengthMeter password={password} /> : null}
      <Form.Item
        name="confirmpassword"
        label={t('password.confirm')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('password.confirmRequired') },
          sameAsRule(t('password.mismatch')),
        ]}
      >
        <Input.Password autoComplete="new-password" onPressEnter={onPressEnter} />
      </Form.Item>
    </>
  );
}
