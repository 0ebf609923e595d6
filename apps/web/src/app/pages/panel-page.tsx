import { Button, Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../shared/session/index.ts';
import { useDocumentTitle } from '../../shared/ui/index.ts';
import { UserLayout } from '../layouts/user-layout.tsx';
import { HOME_PATH, LOGIN_PATH } from '../route-guard.ts';

/** The public /panel page (SPEC section 2): what the console is, and the ways in. */
export function PanelPage() {
  const { t } = useTranslation();
  const signedIn = useSession((s) => !!s.token);
  useDocumentTitle(t('panel.title'));
  return (
    <UserLayout>
      <Card style={{ maxWidth: 480, margin: '0 auto' }}>
        <Typography.Title level={2} style={{ marginTop: 0 }}>
          {t('panel.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('panel.description')}</Typography.Paragraph>
        <Flex gap={8} wrap>
          {signedIn ? (
            <Link to={HOME_PATH}>
              <Button type="primary">{t('panel.home')}</Button>
            </Link>
          ) : (
            <Link to={LOGIN_PATH}>
              <Button type="primary">{t('panel.login')}</Button>
            </Link>
          )}
          <Link to="/vistor/login">
            <Button>{t('panel.visitorLogin')}</Button>
          </Link>
        </Flex>
      </Card>
    </UserLayout>
  );
}
