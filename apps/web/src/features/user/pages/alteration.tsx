import { UserOutlined } from '@ant-design/icons';
import { Button, Form, Input, Result, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { feedback } from '../../../shared/api/index.ts';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import { useResetFindAccount } from '../api/reset-find-account.ts';
import { resetSendCode } from '../api/reset-send-code.ts';
import { useResetSetPassword } from '../api/reset-set-password.ts';
import { useResetVerify } from '../api/reset-verify.ts';
import { AccountPasswordFields, SmsCodeField } from '../components/account-form-fields.tsx';
import { CodeCaptchaField, useCodeCaptcha } from '../components/code-captcha.tsx';
import { useCloseNotices } from '../use-close-notices.ts';
import styles from './account.module.css';

type Step = 0 | 1 | 2 | 3;

/** Password reset in four steps (SPEC section 2): account, SMS verification, new password, done. */
export default function AlterationPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('reset.pageTitle'));
  const [step, showStep] = useState<Step>(0);
  const [username, setUsername] = useState('');
  const [maskedPhone, setMaskedPhone] = useState('');
  const [resetToken, setResetToken] = useState('');
  const findAccount = useResetFindAccount();
  const verify = useResetVerify();
  const setPassword = useResetSetPassword();
  const [passwordForm] = Form.useForm<{ password: string; confirmPassword: string }>();
  const [codeForm] = Form.useForm<{ smscode: string }>();
  const captcha = useCodeCaptcha();
  const navigate = useNavigate();

  const closeNotices = useCloseNotices();
  const setStep = (next: Step) => {
    closeNotices();
    showStep(next);
  };

  const refused = (message: string) => feedback().notify('error', t('request.systemNotice'), message, 4);

  async function submitAccount(values: { username: string }) {
    const answer = await findAccount.mutateAsync(values.username.trim()).catch(() => null);
    if (!answer) return;
    if (!answer.success) return refused(answer.message);
    setUsername(values.username.trim());
    setMaskedPhone(answer.result.maskedPhone);
    setStep(1);
  }

  async function sendCode(): Promise<boolean> {
    const typed = await captcha.read(codeForm);
    if (typed === null) return false;
    const answer = await resetSendCode({ username, ...typed }).catch(() => null);
    // the server has used the captcha up, whatever it answered
    if (typed) captcha.renew(codeForm);
    if (!answer) return false;
    if (!answer.success) {
      refused(answer.message);
      return false;
    }
    feedback().notify('success', t('register.codeSent'), t('reset.codeTarget', { phone: answer.result.maskedPhone }), 3);
    return true;
  }

  async function submitCode(values: { smscode: string }) {
    const answer = await verify.mutateAsync({ username, smscode: values.smscode.trim() }).catch(() => null);
    if (!answer) return;
    if (!answer.success) return refused(answer.message);
    setResetToken(answer.result.resetToken);
    setStep(2);
  }

  async function submitPassword(values: { password: string; confirmPassword: string }) {
    const answer = await setPassword.mutateAsync({ username, resetToken, ...values }).catch(() => null);
    if (!answer) return;
    if (!answer.success) return refused(answer.message);
    setStep(3);
  }

  return (
    <div className={styles.wide}>
      <Typography.Title level={2} className={styles.heading}>
        {t('reset.pageTitle')}
      </Typography.Title>
      <Steps
        className={styles.steps}
        current={step}
        status={step === 3 ? 'finish' : 'process'}
        size="small"
        responsive={false}
        titlePlacement="vertical"
        items={[{ title: t('reset.stepAccount') }, { title: t('reset.stepVerify') }, { title: t('reset.stepPassword') }, { title: t('reset.stepDone') }]}
      />
      <div className={styles.card}>
        {step === 0 && (
          <Form<{ username: string }> size="large" onFinish={(v) => void submitAccount(v)} initialValues={{ username }}>
            <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('reset.usernameRequired') }]}>
              <Input prefix={<UserOutlined aria-hidden />} placeholder={t('reset.username')} aria-label={t('reset.username')} autoComplete="username" autoFocus />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" block loading={findAccount.isPending}>
                {t('reset.next')}
              </Button>
            </Form.Item>
            <div className={styles.links}>
              <Link to="/user/login">{t('reset.toLogin')}</Link>
            </div>
          </Form>
        )}
        {step === 1 && (
          <Form<{ smscode: string }> form={codeForm} size="large" onFinish={(v) => void submitCode(v)}>
            <Typography.Paragraph className={styles.center}>{t('reset.codeTarget', { phone: maskedPhone })}</Typography.Paragraph>
            <CodeCaptchaField captcha={captcha} onRenew={() => captcha.renew(codeForm)} />
            <SmsCodeField name="smscode" placeholder={t('reset.code')} onSend={sendCode} />
            <Form.Item>
              <Button type="primary" htmlType="submit" block loading={verify.isPending}>
                {t('reset.next')}
              </Button>
            </Form.Item>
            <Button type="link" className={styles.linkButton} onClick={() => setStep(0)}>
              {t('reset.back')}
            </Button>
          </Form>
        )}
        {step === 2 && (
          <Form form={passwordForm} size="large" onFinish={(v) => void submitPassword(v)}>
            <AccountPasswordFields placeholder={t('reset.newPassword')} confirmPlaceholder={t('reset.confirmPassword')} />
            <Form.Item>
              <Button type="primary" htmlType="submit" block loading={setPassword.isPending}>
                {t('reset.submit')}
              </Button>
            </Form.Item>
          </Form>
        )}
        {step === 3 && (
          <Result
            className={styles.result}
            status="success"
            title={t('reset.doneTitle')}
            subTitle={t('reset.doneDescription')}
            extra={
              <Button type="primary" size="large" onClick={() => navigate('/user/login')}>
                {t('reset.toLogin')}
              </Button>
            }
          />
        )}
      </div>
    </div>
  );
}
