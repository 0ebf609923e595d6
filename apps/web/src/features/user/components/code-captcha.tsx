import { SafetyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Skeleton, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newCheckKey, useCaptcha } from '../api/get-captcha.ts';
import { getLoginSettings } from '../api/get-login-settings.ts';
import styles from '../pages/account.module.css';

/** The form field of the captcha asked for before a code is sent. */
export const CODE_CAPTCHA_FIELD = 'codeCaptcha';

export interface CodeCaptcha {
  /** the server asks for it (LOGIN_CAPTCHA on; asked for until the server has said) */
  on: boolean;
  /** the tenant's self-registration, once the server has said */
  registration: 'off' | 'open' | 'approval' | undefined;
  checkKey: string;
  /** the captcha of the form, to send with the code request; null when it is off or not typed */
  read(form: FormInstance): Promise<{ captcha: string; checkKey: string } | null | undefined>;
  /** a new picture: the server uses a captcha up with each request */
  renew(form: FormInstance): void;
}

/** The login captcha that a "Get code" button needs (the server checks and uses it up), as the login page has it. */
export function useCodeCaptcha(tenant?: string): CodeCaptcha {
  const settings = useQuery({ queryKey: ['loginSettings', tenant ?? ''], queryFn: () => getLoginSettings(tenant), staleTime: 60_000 });
  const [checkKey, setCheckKey] = useState(newCheckKey);
  const on = settings.data?.captcha ?? true;
  return {
    on,
    registration: settings.data?.registration,
    checkKey,
    async read(form) {
      if (!on) return undefined;
      const captcha = await form
        .validateFields([CODE_CAPTCHA_FIELD])
        .then((values: Record<string, string>) => String(values[CODE_CAPTCHA_FIELD] ?? '').trim())
        .catch(() => null);
      return captcha ? { captcha, checkKey } : null;
    },
    renew(form) {
      setCheckKey(newCheckKey());
      form.setFieldValue(CODE_CAPTCHA_FIELD, '');
    },
  };
}

/** The captcha's field and picture (a press on the picture shows another); nothing while the server has it off. */
export function CodeCaptchaField({ captcha, onRenew }: { captcha: CodeCaptcha; onRenew: () => void }) {
  const { t } = useTranslation();
  const image = useCaptcha(captcha.checkKey);
  if (!captcha.on) return null;
  return (
    <div className={styles.codeRow}>
      <Form.Item name={CODE_CAPTCHA_FIELD} className={styles.codeInput} rules={[{ required: true, whitespace: true, message: t('login.captchaRequired') }]}>
        <Input prefix={<SafetyOutlined aria-hidden />} placeholder={t('login.captcha')} aria-label={t('login.captcha')} autoComplete="off" maxLength={16} />
      </Form.Item>
      <button type="button" className={styles.captchaImage} onClick={onRenew} aria-label={t('login.captchaImage')} title={t('login.captchaImage')}>
        {image.data ? <img src={image.data} alt={t('login.captchaImage')} /> : <Skeleton.Button active block />}
      </button>
    </div>
  );
}
