import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MessageKey } from '../../locales/en-US.ts';
import { useDocumentTitle } from '../../shared/ui/index.ts';
import { HOME_PATH } from '../route-guard.ts';

export type ExceptionStatus = '403' | '404' | '500';

const texts: Record<ExceptionStatus, { title: MessageKey; subTitle: MessageKey }> = {
  '403': { title: 'exception.accessDenied', subTitle: 'exception.403' },
  '404': { title: 'exception.pageNotFound', subTitle: 'exception.404' },
  '500': { title: 'exception.serverError', subTitle: 'exception.500' },
};

/** SPEC section 8: the exception pages 403, 404 and 500, each with a way back home. */
export function ExceptionPage({ status }: { status: ExceptionStatus }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t(texts[status].title));
  return (
    <Result
      status={status}
      title={status}
      subTitle={t(texts[status].subTitle)}
      extra={
        <Button type="primary" onClick={() => navigate(HOME_PATH)}>
          {t('exception.backHome')}
        </Button>
      }
    />
  );
}
