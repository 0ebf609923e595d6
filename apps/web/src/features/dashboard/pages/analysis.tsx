import { AlertOutlined, ApartmentOutlined, ApiOutlined, DisconnectOutlined, LoginOutlined, SafetyOutlined, TeamOutlined, UnlockOutlined, WifiOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Result, Row, Skeleton, Statistic } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DashboardFigurePermission, RealtimeCmd, type DashboardDevices, type DashboardSummary } from '@isps/contract';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { useAppEvent } from '../../../shared/realtime/index.ts';
import { dashboardDevicesKey, useDashboardDevices } from '../api/get-dashboard-devices.ts';
import { useDashboardSummary } from '../api/get-dashboard-summary.ts';
import { HourChart } from '../components/hour-chart.tsx';
import { LoginChart } from '../components/login-chart.tsx';

const cards: { key: keyof Omit<DashboardSummary, 'loginsLast7Days'>; icon: ReactNode }[] = [
  { key: 'userCount', icon: <TeamOutlined /> },
  { key: 'roleCount', icon: <SafetyOutlined /> },
  { key: 'departCount', icon: <ApartmentOutlined /> },
  { key: 'onlineTokenCount', icon: <WifiOutlined /> },
  { key: 'loginsToday', icon: <LoginOutlined /> },
];

const deviceCards: { key: keyof Omit<DashboardDevices, 'eventsByHour' | 'emergencyActive'>; icon: ReactNode; color?: string }[] = [
  { key: 'devicesOnline', icon: <ApiOutlined />, color: '#389e0d' },
  { key: 'devicesOffline', icon: <DisconnectOutlined /> },
  { key: 'doorsOpen', icon: <UnlockOutlined />, color: '#1677ff' },
  { key: 'openAlarms', icon: <AlertOutlined />, color: '#cf1322' },
];

/** Presence, door states and the emergency change the device figures: they are read again, at most every half second. */
function useLiveDeviceFigures(): void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = () => {
    timer.current ??= setTimeout(() => {
      timer.current = null;
      void client.invalidateQueries({ queryKey: dashboardDevicesKey });
    }, 500);
  };
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  useAppEvent('deviceConnection', refresh);
  useAppEvent('doorState', refresh);
  useAppEvent('realtimeOpen', refresh);
  useAppEvent('realtimeMessage', (m) => {
    if (m.cmd === RealtimeCmd.emergency) refresh();
  });
}

/**
 * The home page: devices online and offline, doors open, open alarms and today's events first, then the console's own
 * counts; each reader sees the figures their permissions cover (the server sends no others).
 */
export default function AnalysisPage() {
  const { t } = useTranslation();
  const can = usePermissionCheck();
  const sees = (figure: keyof typeof DashboardFigurePermission) => can(DashboardFigurePermission[figure]);
  const shownDeviceCards = deviceCards.filter(({ key }) => sees(key));
  const shownCards = cards.filter(({ key }) => sees(key));
  const seesEvents = sees('eventsByHour');
  const seesLogins = sees('loginsLast7Days');
  const summary = useDashboardSummary(shownCards.length > 0 || seesLogins);
  const devices = useDashboardDevices(shownDeviceCards.length > 0 || seesEvents);
  useLiveDeviceFigures();

  if (shownDeviceCards.length + shownCards.length === 0 && !seesEvents && !seesLogins) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noFigures')} />;
  }

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
  const figures = devices.data;
  return (
    <Row gutter={[16, 16]}>
      {shownDeviceCards.map(({ key, icon, color }) => (
        <Col key={key} xs={12} lg={6}>
          <Card variant="borderless">
            <Skeleton active loading={!figures} paragraph={{ rows: 1 }}>
              <Statistic title={t(`dashboard.${key}`)} value={figures?.[key] ?? 0} prefix={icon} valueStyle={color && (figures?.[key] ?? 0) > 0 ? { color } : undefined} groupSeparator="," data-testid={`dashboard-${key}`} />
            </Skeleton>
          </Card>
        </Col>
      ))}
      {seesEvents && (
        <Col span={24}>
          <Card variant="borderless" title={t('dashboard.eventsByHour')}>
            <Skeleton active loading={!figures} paragraph={{ rows: 5 }}>
              <HourChart hours={figures?.eventsByHour ?? []} />
            </Skeleton>
          </Card>
        </Col>
      )}
      {shownCards.map(({ key, icon }) => (
        <Col key={key} xs={24} sm={12} lg={8} xl={{ flex: '20%' }}>
          <Card variant="borderless">
            <Skeleton active loading={!data} paragraph={{ rows: 1 }}>
              <Statistic title={t(`dashboard.${key}`)} value={data?.[key] ?? 0} prefix={icon} groupSeparator="," />
            </Skeleton>
          </Card>
        </Col>
      ))}
      {seesLogins && (
        <Col span={24}>
          <Card variant="borderless" title={t('dashboard.loginsLast7Days')}>
            <Skeleton active loading={!data} paragraph={{ rows: 6 }}>
              <LoginChart days={data?.loginsLast7Days ?? []} />
            </Skeleton>
          </Card>
        </Col>
      )}
    </Row>
  );
}
