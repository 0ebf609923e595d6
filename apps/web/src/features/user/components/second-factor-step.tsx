import { SafetyOutlined } from '@ant-design/icons';
import type { LoginResult, SecondFactorChallenge } from '@isps/contract';
import { Button, Form, Input, QRCode, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/api/index.ts';
import { useChallengeEnroll } from '../api/two-factor-challenge-enroll.ts';
import { useTwoFactorLogin } from '../api/two-factor-login.ts';
import styles from '../pages/account.module.css';
import { TwoFactorSecret } from './two-factor-secret.tsx';

export interface SecondFactorStepProps {
  challenge: SecondFactorChallenge;
  onDone: (result: LoginResult) => void;
  onCancel: () => void;
}

/** Login step two: the 6-digit code of an authenticator app; users who must enrol first scan a QR code here. */
export function SecondFactorStep({ challenge, onDone, onCancel }: SecondFactorStepProps) {
  const { t } = useTranslation();
  const enrollment = useChallengeEnroll(challenge.challenge, !challenge.enrolled);
  const complete = useTwoFactorLogin();

  async function submit(values: { code: string }) {
    const answer = await complete.mutateAsync({ challenge: challenge.challenge, code: values.code.trim() }).catch(() => null);
    if (!answer) return;
    if (!answer.success) {
      feedback().notify('error', t('login.failed'), answer.message, 4);
      return;
    }
    onDone(answer.result);
  }

  return (
    <div className={styles.card}>
      <Typography.Title level={2} className={styles.heading}>
        {t('login.secondFactorTitle')}
      </Typography.Title>
      {!challenge.enrolled && (
        <>
          <Typography.Paragraph>{t('login.secondFactorEnrol')}</Typography.Paragraph>
          {enrollment.data ? (
            <>
              <div className={styles.qr}>
                <QRCode value={enrollment.data.uri} size={176} />
              </div>
              <TwoFactorSecret secret={enrollment.data.secret} />
            </>
          ) : (
            <Skeleton.Image active />
          )}
        </>
      )}
      <Form<{ code: string }> size="large" onFinish={(v) => void submit(v)}>
        <Form.Item name="code" rules={[{ required: true, pattern: /^\d{6}$/, message: t('login.secondFactorCodeRequired') }]}>
          <Input
            prefix={<SafetyOutlined aria-hidden />}
            placeholder={t('login.secondFactorCode')}
            aria-label={t('login.secondFactorCode')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            autoFocus
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={complete.isPending}>
            {t('login.secondFactorSubmit')}
          </Button>
        </Form.Item>
        <Button type="link" className={styles.linkButton} onClick={onCancel}>
          {t('login.secondFactorBack')}
        </Button>
      </Form>
    </div>
  );
}
