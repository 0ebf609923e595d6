import { SafetyOutlined } from '@ant-design/icons';
import type { Envelope, TwoFactorEnrollment } from '@isps/contract';
import { Alert, Form, Input, Modal, QRCode, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/api/index.ts';
import { useTwoFactorStatus } from '../api/get-two-factor-status.ts';
import { useTwoFactorConfirm } from '../api/two-factor-confirm.ts';
import { useTwoFactorDisable } from '../api/two-factor-disable.ts';
import { useTwoFactorEnroll } from '../api/two-factor-enroll.ts';
import { TwoFactorSecret } from './two-factor-secret.tsx';
import styles from '../pages/account.module.css';

export interface TwoFactorDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The user's own two-step verification: enrol an authenticator app (QR code or key, then a code), or switch it off. */
export function TwoFactorDialog({ open, onClose }: TwoFactorDialogProps) {
  const { t } = useTranslation();
  const status = useTwoFactorStatus(open);
  const enroll = useTwoFactorEnroll();
  const confirm = useTwoFactorConfirm();
  const disable = useTwoFactorDisable();
  const [enrollment, setEnrollment] = useState<TwoFactorEnrollment | null>(null);
  const [form] = Form.useForm<{ code: string }>();

  function close() {
    setEnrollment(null);
    form.resetFields();
    onClose();
  }

  /** true when the server agreed; its message is shown either way */
  function report(answer: Envelope<unknown> | null): boolean {
    if (!answer) return false;
    if (!answer.success) {
      feedback().notify('error', t('twoFactorDialog.failed'), answer.message || t('twoFactorDialog.failed'), 4);
      return false;
    }
    feedback().notify('success', t('twoFactorDialog.title'), answer.message || t('twoFactorDialog.title'), 3);
    return true;
  }

  async function start() {
    const answer = await enroll.mutateAsync().catch(() => null);
    if (!answer) return;
    if (answer.success && answer.result) setEnrollment(answer.result);
    else feedback().notify('error', t('twoFactorDialog.failed'), answer.message || t('twoFactorDialog.failed'), 4);
  }

  async function submit({ code }: { code: string }) {
    const call = status.data?.enrolled ? disable : confirm;
    if (report(await call.mutateAsync(code.trim()).catch(() => null))) {
      setEnrollment(null);
      form.resetFields();
    } else {
      form.setFieldValue('code', '');
    }
  }

  const enrolled = status.data?.enrolled === true;
  // the code is sent with the dialog's own footer button (or Enter), like every other dialog
  const codeForm = (
    <Form<{ code: string }> form={form} layout="vertical" onFinish={(v) => void submit(v)} className={styles.twoFactorForm}>
      <Form.Item
        name="code"
        label={t('login.secondFactorCode')}
        rules={[{ required: true, pattern: /^\d{6}$/, message: t('login.secondFactorCodeRequired') }]}
      >
        <Input prefix={<SafetyOutlined aria-hidden />} autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
      </Form.Item>
    </Form>
  );

  let body;
  if (!status.data) body = <Skeleton active />;
  else if (enrolled) {
    body = (
      <>
        <Alert type="success" showIcon title={t('twoFactorDialog.on')} />
        {status.data.required ? (
          <Typography.Paragraph className={styles.twoFactorNote}>{t('twoFactorDialog.required')}</Typography.Paragraph>
        ) : (
          <>
            <Typography.Paragraph className={styles.twoFactorNote}>{t('twoFactorDialog.disableHint')}</Typography.Paragraph>
            {codeForm}
          </>
        )}
      </>
    );
  } else if (enrollment) {
    body = (
      <>
        <Typography.Paragraph>{t('login.secondFactorEnrol')}</Typography.Paragraph>
        <div className={styles.qr}>
          <QRCode value={enrollment.uri} size={176} />
        </div>
        <TwoFactorSecret secret={enrollment.secret} testId="two-factor-secret" />
        {codeForm}
      </>
    );
  } else {
    body = (
      <>
        <Alert type="info" showIcon title={t('twoFactorDialog.off')} />
      </>
    );
  }

  // the one thing the dialog can do now, on the right of the standard footer next to Cancel; none once it is required
  let action: { label: string; danger: boolean; run: () => void; busy: boolean } | null = null;
  if (status.data && enrolled && !status.data.required) action = { label: t('twoFactorDialog.disable'), danger: true, run: () => form.submit(), busy: disable.isPending };
  else if (status.data && !enrolled && enrollment) action = { label: t('twoFactorDialog.enable'), danger: false, run: () => form.submit(), busy: confirm.isPending };
  else if (status.data && !enrolled) action = { label: t('twoFactorDialog.setUp'), danger: false, run: () => void start(), busy: enroll.isPending };

  return (
    <Modal
      open={open}
      title={t('twoFactorDialog.title')}
      onCancel={close}
      footer={action ? undefined : null}
      okText={action?.label}
      cancelText={t('common.cancel')}
      onOk={action?.run}
      okButtonProps={{ danger: action?.danger, loading: action?.busy }}
      destroyOnHidden
      width={440}
    >
      {body}
    </Modal>
  );
}
