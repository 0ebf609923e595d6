import { Card, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../shared/ui/index.ts';
import { STATIC_ROUTES } from '../static-routes.ts';

/** /test/home: every static route of SPEC section 2 in one list, so a tester reaches each in one click. */
export function TestHomePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('testHome.title'));
  return (
    <Card>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('testHome.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('testHome.description')}</Typography.Paragraph>
      <Table
        rowKey={(route) => route.example ?? route.path}
        pagination={false}
        size="small"
        // a phone scrolls the list inside its card instead of widening the page
        scroll={{ x: 'max-content' }}
        dataSource={[...STATIC_ROUTES]}
        columns={[
          {
            title: t('testHome.path'),
            key: 'path',
            render: (_value, route) => (
              <Link to={route.example ?? route.path}>
                <code>{route.example ?? route.path}</code>
              </Link>
            ),
          },
          { title: t('testHome.page'), key: 'page', render: (_value, route) => t(route.titleKey) },
          {
            title: t('testHome.access'),
            key: 'access',
            render: (_value, route) =>
              route.access === 'public' ? <Tag color="green">{t('testHome.public')}</Tag> : <Tag color="blue">{t('testHome.signedIn')}</Tag>,
          },
        ]}
      />
    </Card>
  );
}
