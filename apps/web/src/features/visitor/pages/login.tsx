import { IdcardOutlined, LockOutlined } from '@ant-design/icons';
import { Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { feedback } from '../../../shared/api/index.ts';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import { useVisitorLogin } from '../api/visitor-login.ts';
import styles from '../components/visitor-layout.module.css';
import { storeVisitorSession } from '../visitor-session.ts';

interface VisitorLoginForm {
  account: string;
  password: string;
}

export default function VisitorLoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('visitor.loginTitle'));
  const login = useVisitorLogin();
  const navigate = useNavigate();

  async function submit(values: VisitorLoginForm) {
    const answer = await login.mutateAsync({ account: values.account.trim(), password: values.password }).catch(() => null);
    if (!answer) return;
    if (!answer.success) {
      feedback().notify('error', t('login.failed'), answer.message, 4);
      return;
    }
    storeVisitorSession(answer.result.token, answer.result.visitor);
    navigate('/vistor/user/main', { replace: true });
  }

  return (
    <>
      <Typography.Title level={2} className={styles.title}>
        {t('visitor.loginTitle')}
      </Typography.Title>
      <Form<VisitorLoginForm> size="large" onFinish={(v) => void submit(v)}>
        <Form.Item name="account" rules={[{ required: true, whitespace: true, message: t('visitor.accountRequired') }]}>
          <Input prefix={<IdcardOutlined aria-hidden />} placeholder={t('visitor.account')} aria-label={t('visitor.account')} autoComplete="username" maxLength={45} autoFocus />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: t('visitor.passwordRequired') }]}>
          <Input.Password prefix={<LockOutlined aria-hidden />} placeholder={t('visitor.password')} aria-label={t('visitor.password')} autoComplete="current-password" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            {t('visitor.loginSubmit')}
          </Button>
        </Form.Item>
        <div className={styles.links}>
          <Link to="/vistor/reg">{t('visitor.toRegister')}</Link>
        </div>
      </Form>
    </>
  );
}
