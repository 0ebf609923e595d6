import { SafetyOutlined } from '@ant-design/icons';
import type { Envelope, TwoFactorEnrollment } from '@isps/contract';
import { Alert, Button, Form, Input, Modal, QRCode, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/api/index.ts';
import { useTwoFactorStatus } from '../api/get-two-factor-status.ts';
import { useTwoFactorConfirm } from '../api/two-factor-confirm.ts';
import { useTwoFactorDisable } from '../api/two-factor-disable.ts';
import { useTwoFactorEnroll } from '../api/two-factor-enroll.ts';
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
  const codeForm = (submitLabel: string, danger: boolean) => (
    <Form<{ code: string }> form={form} layout="vertical" onFinish={(v) => void submit(v)} className={styles.twoFactorForm}>
      <Form.Item
        name="code"
        label={t('login.secondFactorCode')}
        rules={[{ required: true, pattern: /^\d{6}$/, message: t('login.secondFactorCodeRequired') }]}
      >
        <Input prefix={<SafetyOutlined aria-hidden />} autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
      </Form.Item>
      <Button type="primary" danger={danger} htmlType="submit" loading={confirm.isPending || disable.isPending}>
        {submitLabel}
      </Button>
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
            {codeForm(t('twoFactorDialog.disable'), true)}
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
        <div className={styles.secret} data-testid="two-factor-secret">
          {t('login.secondFactorSecret', { secret: enrollment.secret })}
        </div>
        {codeForm(t('twoFactorDialog.enable'), false)}
      </>
    );
  } else {
    body = (
      <>
        <Alert type="info" showIcon title={t('twoFactorDialog.off')} />
        <Button type="primary" className={styles.twoFactorStart} onClick={() => void start()} loading={enroll.isPending}>
          {t('twoFactorDialog.setUp')}
        </Button>
      </>
    );
  }

  return (
    <Modal open={open} title={t('twoFactorDialog.title')} onCancel={close} footer={null} destroyOnHidden width={440}>
      {body}
    </Modal>
  );
}
