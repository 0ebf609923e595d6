import { MailOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { PHONE_PATTERN, SmsMode, type RegisterCheckQuery } from '@isps/contract';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { feedback } from '../../../shared/api/index.ts';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import { checkRegisterValue } from '../api/check-register-value.ts';
import { useRegister } from '../api/register.ts';
import { sendCodeToField } from '../api/send-sms-code.ts';
import { pageTenant } from '../api/get-login-settings.ts';
import { AccountPasswordFields, SmsCodeField } from '../components/account-form-fields.tsx';
import { CodeCaptchaField, useCodeCaptcha } from '../components/code-captcha.tsx';
import { useCloseNotices } from '../use-close-notices.ts';
import styles from './account.module.css';

interface RegisterForm {
  codeCaptcha?: string;
  username: string;
  password: string;
  confirmPassword: string;
  email: string;
  phone: string;
  smscode: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Taken values are refused with the server's own words, while typing (on leaving the field) and on submit. */
function uniqueRule(field: RegisterCheckQuery['field']) {
  return {
    validateTrigger: 'onBlur',
    async validator(_: unknown, value: string | undefined) {
      if (!value?.trim()) return;
      const message = await checkRegisterValue({ field, value: value.trim() }).catch(() => null);
      if (message) throw new Error(message);
    },
  };
}

export default function RegisterPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('register.pageTitle'));
  const [form] = Form.useForm<RegisterForm>();
  const registerCall = useRegister();
  const navigate = useNavigate();
  const closeNotices = useCloseNotices();
  // the tenant the account is for: the one the login page named
  const tenant = pageTenant(useLocation().search);
  const captcha = useCodeCaptcha(tenant);
  const closed = captcha.registration === 'off';

  const sendCode = () => sendCodeToField(form, 'phone', SmsMode.register, { failed: t('register.failed'), sent: t('register.codeSent') }, captcha, tenant);

  async function submit({ codeCaptcha: _read, ...values }: RegisterForm) {
    const answer = await registerCall
      .mutateAsync({ ...values, ...(tenant ? { tenant } : {}), username: values.username.trim(), email: values.email.trim(), phone: values.phone.trim(), smscode: values.smscode.trim() })
      .catch(() => null);
    if (!answer) return;
    if (!answer.success) {
      feedback().notify('error', t('register.failed'), answer.message, 4);
      return;
    }
    closeNotices();
    const approval = answer.result.awaitingApproval ? '&approval=1' : '';
    navigate(`/user/register-result?username=${encodeURIComponent(answer.result.username)}${approval}`, { replace: true });
  }

  return (
    <div className={styles.card}>
      <Typography.Title level={2} className={styles.heading}>
        {t('register.heading')}
      </Typography.Title>
      {closed && <Alert className={styles.closed} type="warning" showIcon title={t('register.closedHint')} />}
      <Form<RegisterForm> disabled={closed} form={form} size="large" onFinish={(values) => void submit(values)} validateTrigger={['onChange', 'onBlur']}>
        <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('register.usernameRequired') }, uniqueRule('username')]}>
          <Input prefix={<UserOutlined aria-hidden />} placeholder={t('register.username')} aria-label={t('register.username')} autoComplete="username" maxLength={100} />
        </Form.Item>
        <AccountPasswordFields placeholder={t('register.password')} confirmPlaceholder={t('register.confirmPassword')} />
        <Form.Item name="email" rules={[{ required: true, pattern: EMAIL, message: t('register.emailInvalid') }, uniqueRule('email')]}>
          <Input prefix={<MailOutlined aria-hidden />} placeholder={t('register.email')} aria-label={t('register.email')} autoComplete="email" maxLength={100} />
        </Form.Item>
        <Form.Item name="phone" rules={[{ required: true, pattern: PHONE_PATTERN, message: t('register.phoneInvalid') }, uniqueRule('phone')]}>
          <Input prefix={<MobileOutlined aria-hidden />} placeholder={t('register.phone')} aria-label={t('register.phone')} autoComplete="tel" maxLength={20} />
        </Form.Item>
        <CodeCaptchaField captcha={captcha} onRenew={() => captcha.renew(form)} />
        <SmsCodeField name="smscode" placeholder={t('register.smsCode')} onSend={sendCode} />
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={registerCall.isPending}>
            {t('register.submit')}
          </Button>
        </Form.Item>
        <div className={styles.links}>
          <Link to="/user/login">{t('register.toLogin')}</Link>
        </div>
      </Form>
    </div>
  );
}
