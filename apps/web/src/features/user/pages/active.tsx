import { KeyOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { feedback } from '../../../shared/api/index.ts';
import { formatTime } from '../../../shared/time/index.ts';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import { useActivate } from '../api/activate.ts';
import { useActivationStatus } from '../api/get-activation-status.ts';
import styles from './account.module.css';

/** /user/active: where the 'System authorization expired' modal leads. */
export default function ActivePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('active.pageTitle'));
  const status = useActivationStatus();
  const activateCall = useActivate();
  const [form] = Form.useForm<{ code: string }>();

  async function submit(values: { code: string }) {
    const answer = await activateCall.mutateAsync(values.code.trim()).catch(() => null);
    if (!answer) return;
    if (!answer.success) {
      feedback().notify('error', t('request.systemNotice'), answer.message, 4);
      return;
    }
    form.resetFields();
    feedback().notify('success', t('active.heading'), answer.message, 4);
  }

  const state = status.data;
  return (
    <div className={styles.card}>
      <Typography.Title level={2} className={styles.heading}>
        {t('active.heading')}
      </Typography.Title>
      {state && (
        <Alert
          style={{ marginBottom: 24 }}
          showIcon
          type={state.expired ? 'error' : 'success'}
          title={
            state.expired
              ? t('active.statusExpired')
              : state.authorizedUntil
                ? t('active.statusValid', { until: formatTime(state.authorizedUntil) })
                : t('active.statusNotRequired')
          }
        />
      )}
      <Form form={form} size="large" onFinish={(v) => void submit(v)}>
        <Form.Item name="code" rules={[{ required: true, whitespace: true, message: t('active.codeRequired') }]}>
          <Input prefix={<KeyOutlined aria-hidden />} placeholder={t('active.code')} aria-label={t('active.code')} autoComplete="off" maxLength={100} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={activateCall.isPending}>
            {t('active.submit')}
          </Button>
        </Form.Item>
        <div className={styles.links}>
          <Link to="/user/login">{t('active.toLogin')}</Link>
        </div>
      </Form>
    </div>
  );
}
