import { ApartmentOutlined, LoginOutlined, SafetyOutlined, TeamOutlined, WifiOutlined } from '@ant-design/icons';
import { Button, Card, Col, Result, Row, Skeleton, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardSummary } from '@isps/contract';
import { useDashboardSummary } from '../api/get-dashboard-summary.ts';
import { LoginChart } from '../components/login-chart.tsx';

const cards: { key: keyof Omit<DashboardSummary, 'loginsLast7Days'>; icon: ReactNode }[] = [
  { key: 'userCount', icon: <TeamOutlined /> },
  { key: 'roleCount', icon: <SafetyOutlined /> },
  { key: 'departCount', icon: <ApartmentOutlined /> },
  { key: 'onlineTokenCount', icon: <WifiOutlined /> },
  { key: 'loginsToday', icon: <LoginOutlined /> },
];

/** The home page: counts of the console's users, roles and groups, sessions and recent logins. */
export default function AnalysisPage() {
  const { t } = useTranslation();
  const summary = useDashboardSummary();

  if (summary.isError) {
    return (
      <Result
        status="warning"
        title={t('dashboard.loadFailed')}
        subTitle={summary.error.message}
        extra={
          <Button type="primary" onClick={() => void summary.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }

  const data = summary.data;
  return (
    <Row gutter={[16, 16]}>
      {cards.map(({ key, icon }) => (
        <Col key={key} xs={24} sm={12} lg={8} xl={{ flex: '20%' }}>
          <Card variant="borderless">
            <Skeleton active loading={!data} paragraph={{ rows: 1 }}>
              <Statistic title={t(`dashboard.${key}`)} value={data?.[key] ?? 0} prefix={icon} groupSeparator="," />
            </Skeleton>
          </Card>
        </Col>
      ))}
      <Col span={24}>
        <Card variant="borderless" title={t('dashboard.loginsLast7Days')}>
          <Skeleton active loading={!data} paragraph={{ rows: 6 }}>
            <LoginChart days={data?.loginsLast7Days ?? []} />
          </Skeleton>
        </Card>
      </Col>
    </Row>
  );
}
