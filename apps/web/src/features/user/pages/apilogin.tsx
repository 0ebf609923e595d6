import { Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { HOME_PATH, useSession } from '../../../shared/session/index.ts';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import { validateCasTicket } from '../api/validate-cas-ticket.ts';
import styles from './account.module.css';

/** The CAS server redirects here with ?ticket=; the service is this page's own address without the ticket. */
export default function ApiLoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('apilogin.pageTitle'));
  const [params] = useSearchParams();
  const ticket = params.get('ticket');
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(ticket ? null : t('apilogin.noTicket'));

  useEffect(() => {
    if (!ticket) return;
    let cancelled = false;
    const service = new URL(window.location.href);
    service.searchParams.delete('ticket');
    validateCasTicket(ticket, service.toString())
      .then((answer) => {
        if (cancelled) return;
        if (!answer.success || !answer.result?.token) return setFailure(answer.message || t('apilogin.failed'));
        signIn(answer.result.token, answer.result.userInfo, answer.result.multi_depart === 2);
        navigate(params.get('redirect') ?? HOME_PATH, { replace: true });
      })
      .catch(() => !cancelled && setFailure(t('apilogin.failed')));
    return () => {
      cancelled = true;
    };
  }, [ticket, signIn, navigate, params, t]);

  if (!failure) {
    return (
      <div className={styles.center}>
        <Spin size="large" />
        <p>{t('apilogin.checking')}</p>
      </div>
    );
  }
  return (
    <div className={styles.wide}>
      <Result
        status="warning"
        title={t('apilogin.failed')}
        subTitle={failure}
        extra={
          <Button type="primary" onClick={() => navigate('/user/login')}>
            {t('apilogin.toLogin')}
          </Button>
        }
      />
    </div>
  );
}
