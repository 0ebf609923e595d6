import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../shared/session/index.ts';
import { useDocumentTitle } from '../../shared/ui/index.ts';
import { UserLayout } from '../layouts/user-layout.tsx';
import { HOME_PATH, LOGIN_PATH } from '../route-guard.ts';

const success = new Set(['success', 'ok', '1', 'true']);

/** Only a path inside the console: never another site (`//host`) or a script address. */
const internalPath = (value: string | null) => (value && value.startsWith('/') && !value.startsWith('//') ? value : null);

/**
 * The public /result page: `status` success|error, optional `title` and `description` given by the caller
 * (shown as plain text) and `back`, a console path for the first button.
 */
export function ResultPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const signedIn = useSession((s) => !!s.token);
  const ok = success.has((params.get('status') ?? 'success').toLowerCase());
  const title = params.get('title') || t(ok ? 'result.successTitle' : 'result.failureTitle');
  const back = internalPath(params.get('back'));
  useDocumentTitle(t('result.pageTitle'));
  return (
    <UserLayout>
      <Result
        status={ok ? 'success' : 'error'}
        title={title}
        subTitle={params.get('description') || t(ok ? 'result.successDescription' : 'result.failureDescription')}
        extra={[
          back ? (
            <Button key="back" type="primary" onClick={() => navigate(back)}>
              {t('result.back')}
            </Button>
          ) : null,
          <Button key="home" type={back ? 'default' : 'primary'} onClick={() => navigate(signedIn ? HOME_PATH : LOGIN_PATH)}>
            {signedIn ? t('panel.home') : t('panel.login')}
          </Button>,
        ]}
      />
    </UserLayout>
  );
}
