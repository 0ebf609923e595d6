import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Skeleton, Tabs } from 'antd';
// the two inputs by their own paths: antd's Input barrel brings TextArea, Search and OTP along
import Input from 'antd/es/input/Input';
import PasswordInput from 'antd/es/input/Password';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { needsSecondFactor, type LoginResult, type SecondFactorChallenge } from '@isps/contract';
import { feedback } from '../../../shared/api/index.ts';
import { redirectTarget, useSession } from '../../../shared/session/index.ts';
import { SliderCaptcha, useDocumentTitle } from '../../../shared/ui/index.ts';
import { newCheckKey, useCaptcha } from '../api/get-captcha.ts';
import { useLogin } from '../api/login.ts';
import { expectWelcome } from '../greeting.ts';
import { useCloseNotices } from '../use-close-notices.ts';
import styles from './login.module.css';

// The phone tab and the second step (with its QR code) load when first shown: the password form comes first.
const PhoneLoginForm = lazy(() => import('../components/phone-login-form.tsx').then((m) => ({ default: m.PhoneLoginForm })));
const SecondFactorStep = lazy(() => import('../components/second-factor-step.tsx').then((m) => ({ default: m.SecondFactorStep })));

interface LoginForm {
  username: string;
  password: string;
  captcha: string;
  slider: boolean;
}

export default function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.pageTitle'));
  const [form] = Form.useForm<LoginForm>();
  const [checkKey, setCheckKey] = useState(newCheckKey);
  const captcha = useCaptcha(checkKey);
  const login = useLogin();
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const location = useLocation();
  const [challenge, showChallenge] = useState<SecondFactorChallenge | null>(null);
  const closeNotices = useCloseNotices();
  const setChallenge = (next: SecondFactorChallenge | null) => {
    closeNotices();
    showChallenge(next);
  };

  function refreshCaptcha() {
    setCheckKey(newCheckKey());
    form.setFieldsValue({ captcha: '', slider: false });
  }

  async function submit(values: LoginForm) {
    const answer = await login
      .mutateAsync({ username: values.username.trim(), password: values.password, captcha: values.captcha.trim(), checkKey })
      .catch(() => null);
    if (!answer) {
      refreshCaptcha();
      return;
    }
    const result = answer.result;
    if (answer.success && result && needsSecondFactor(result)) {
      setChallenge(result);
      return;
    }
    if (!answer.success || !result || needsSecondFactor(result) || !result.token) {
      feedback().notify('error', t('login.failed'), answer.message || t('login.failed'), 4);
      refreshCaptcha();
      return;
    }
    enter(result);
  }

  function enter(result: LoginResult) {
    closeNotices();
    signIn(result.token, result.userInfo, result.multi_depart === 2);
    // The console greets once the menu has loaded; one who must first replace the initial password gets that dialog instead.
    if (!result.userInfo.mustChangePassword) expectWelcome();
    navigate(redirectTarget(location.search), { replace: true });
  }

  const accountForm = (
    <Form<LoginForm> form={form} size="large" onFinish={(values) => void submit(values)} autoComplete="on">
      <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
        <Input
          prefix={<UserOutlined aria-hidden />}
          placeholder={t('login.username')}
          aria-label={t('login.username')}
          autoComplete="username"
          autoFocus
        />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
        <PasswordInput
          prefix={<LockOutlined aria-hidden />}
          placeholder={t('login.password')}
          aria-label={t('login.password')}
          autoComplete="current-password"
        />
      </Form.Item>
      <div className={styles.captchaRow}>
        <Form.Item name="captcha" className={styles.captchaInput} rules={[{ required: true, whitespace: true, message: t('login.captchaRequired') }]}>
          <Input
            prefix={<SafetyCertificateOutlined aria-hidden />}
            placeholder={t('login.captcha')}
            aria-label={t('login.captcha')}
            autoComplete="off"
            maxLength={16}
          />
        </Form.Item>
        <button type="button" className={styles.captchaImage} onClick={refreshCaptcha} aria-label={t('login.captchaImage')} title={t('login.captchaImage')}>
          {captcha.data ? <img src={captcha.data} alt={t('login.captchaImage')} /> : <Skeleton.Button active block />}
        </button>
      </div>
      <Form.Item
        name="slider"
        initialValue={false}
        rules={[{ validator: (_rule, passed) => (passed === true ? Promise.resolve() : Promise.reject(new Error(t('sliderCaptcha.required')))) }]}
      >
        <SliderCaptcha />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );

  if (challenge) {
    return (
      <Suspense fallback={<Skeleton active />}>
        <SecondFactorStep
          challenge={challenge}
          onDone={enter}
          onCancel={() => {
            setChallenge(null);
            refreshCaptcha();
          }}
        />
      </Suspense>
    );
  }

  return (
    <div className={styles.login}>
      {/* a plain heading: antd's Typography (copy, edit, ellipsis) is more than the login page needs */}
      <h2 className={styles.heading}>{t('login.heading')}</h2>
      <Tabs
        centered
        className={styles.tabs}
        items={[
          { key: 'account', label: t('login.tabAccount'), children: accountForm },
          {
            key: 'phone',
            label: t('login.tabPhone'),
            children: (
              <Suspense fallback={<Skeleton active />}>
                <PhoneLoginForm onDone={enter} onChallenge={setChallenge} />
              </Suspense>
            ),
          },
        ]}
      />
      <div className={styles.links}>
        <Link to="/user/alteration">{t('login.forgotPassword')}</Link>
        <Link to="/user/register">{t('login.register')}</Link>
      </div>
    </div>
  );
}
