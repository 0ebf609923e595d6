import { needsSecondFactor, type LoginResult, type SecondFactorChallenge } from '@isps/contract';
import { Button, Result, Spin } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { HOME_PATH, useSession } from '../../../shared/session/index.ts';
import { useDocumentTitle } from '../../../shared/ui/index.ts';
import { validateCasTicket } from '../api/validate-cas-ticket.ts';
import { SecondFactorStep } from '../components/second-factor-step.tsx';
import { useCloseNotices } from '../use-close-notices.ts';
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
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const redirect = params.get('redirect');
  const closeNotices = useCloseNotices();
  const enter = useCallback(
    (result: LoginResult) => {
      closeNotices();
      signIn(result.token, result.userInfo, result.multi_depart === 2);
      navigate(redirect ?? HOME_PATH, { replace: true });
    },
    [signIn, navigate, redirect, closeNotices],
  );

  useEffect(() => {
    if (!ticket) return;
    let cancelled = false;
    const service = new URL(window.location.href);
    service.searchParams.delete('ticket');
    validateCasTicket(ticket, service.toString())
      .then((answer) => {
        if (cancelled) return;
        if (!answer.success || !answer.result) return setFailure(answer.message || t('apilogin.failed'));
        // the ticket stands for the password: two-step users still give their code
        if (needsSecondFactor(answer.result)) return setChallenge(answer.result);
        if (!answer.result.token) return setFailure(answer.message || t('apilogin.failed'));
        enter(answer.result);
      })
      .catch(() => !cancelled && setFailure(t('apilogin.failed')));
    return () => {
      cancelled = true;
    };
  }, [ticket, enter, t]);

  if (challenge) {
    return <SecondFactorStep challenge={challenge} onDone={enter} onCancel={() => navigate('/user/login', { replace: true })} />;
  }

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
