import { MobileOutlined } from '@ant-design/icons';
import { PHONE_PATTERN, SmsMode, needsSecondFactor, type LoginResult, type SecondFactorChallenge } from '@isps/contract';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/api/index.ts';
import { usePhoneLogin } from '../api/phone-login.ts';
import { sendCodeToField } from '../api/send-sms-code.ts';
import { SmsCodeField } from './account-form-fields.tsx';
import { CodeCaptchaField, useCodeCaptcha } from './code-captcha.tsx';

interface PhoneLoginValues {
  mobile: string;
  captcha: string;
}

/** The login page's second way in: a code sent by SMS to the phone of the account (POST /sys/phoneLogin). */
export function PhoneLoginForm({ onDone, onChallenge }: { onDone: (result: LoginResult) => void; onChallenge: (challenge: SecondFactorChallenge) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PhoneLoginValues>();
  const login = usePhoneLogin();
  const captcha = useCodeCaptcha();

  const sendCode = () => sendCodeToField(form, 'mobile', SmsMode.login, { failed: t('login.failed'), sent: t('register.codeSent') }, captcha);

  async function submit(values: PhoneLoginValues) {
    const answer = await login.mutateAsync({ mobile: values.mobile.trim(), captcha: values.captcha.trim() }).catch(() => null);
    if (!answer) return;
    if (answer.success && answer.result && needsSecondFactor(answer.result)) {
      onChallenge(answer.result);
      return;
    }
    if (!answer.success || !answer.result || needsSecondFactor(answer.result) || !answer.result.token) {
      feedback().notify('error', t('login.failed'), answer.message || t('login.failed'), 4);
      return;
    }
    onDone(answer.result);
  }

  return (
    <Form<PhoneLoginValues> form={form} size="large" onFinish={(values) => void submit(values)}>
      <Form.Item name="mobile" rules={[{ required: true, whitespace: true, message: t('login.phoneRequired') }, { pattern: PHONE_PATTERN, message: t('register.phoneInvalid') }]}>
        <Input prefix={<MobileOutlined aria-hidden />} placeholder={t('login.phone')} aria-label={t('login.phone')} autoComplete="tel" inputMode="tel" maxLength={20} />
      </Form.Item>
      <CodeCaptchaField captcha={captcha} onRenew={() => captcha.renew(form)} />
      <SmsCodeField name="captcha" placeholder={t('register.smsCode')} onSend={sendCode} />
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
