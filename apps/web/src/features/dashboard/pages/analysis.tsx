import { AlertOutlined, ApartmentOutlined, ApiOutlined, DisconnectOutlined, LoginOutlined, SafetyOutlined, TeamOutlined, UnlockOutlined, WifiOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row, Skeleton, Statistic } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DashboardFigurePermission, RealtimeCmd, type DashboardDevices, type DashboardSummary } from '@isps/contract';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { LazyResult } from '../../../shared/ui/index.ts';
import { useAppEvent } from '../../../shared/realtime/index.ts';
import { dashboardDevicesKey, useDashboardDevices } from '../api/get-dashboard-devices.ts';
import { useDashboardSummary } from '../api/get-dashboard-summary.ts';
import { AccessHourChart, AlarmLevelChart, AttendanceChart, CabinetChart, DeviceSystemChart, LoginWeekChart } from '../components/dashboard-charts.tsx';

const cards: { key: keyof Omit<DashboardSummary, 'loginsLast7Days'>; icon: ReactNode }[] = [
  { key: 'userCount', icon: <TeamOutlined /> },
  { key: 'roleCount', icon: <SafetyOutlined /> },
  { key: 'departCount', icon: <ApartmentOutlined /> },
  { key: 'onlineTokenCount', icon: <WifiOutlined /> },
  { key: 'loginsToday', icon: <LoginOutlined /> },
];

type DeviceCard = 'devicesOnline' | 'devicesOffline' | 'doorsOpen' | 'openAlarms';

const deviceCards: { key: DeviceCard; icon: ReactNode; color?: string }[] = [
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

/** A chart in a card of its own, a skeleton while its figures load. */
function ChartCard({ title, loading, children, lg = 8 }: { title: string; loading: boolean; children: () => ReactNode; lg?: number }) {
  return (
    <Col xs={24} lg={lg}>
      <Card variant="borderless" title={title} styles={{ body: { paddingInline: 12 } }}>
        <Skeleton active loading={loading} paragraph={{ rows: 5 }}>
          {!loading && children()}
        </Skeleton>
      </Card>
    </Col>
  );
}

/**
 * The home page: devices online and offline, doors open and open alarms first, then charts of today's passages, the
 * devices per system, the open alarms per level, today's attendance and the cabinets, then the console's own counts
 * and the week's sign-ins; each reader sees the figures their permissions cover (the server sends no others).
 */
export default function AnalysisPage() {
  const { t } = useTranslation();
  const can = usePermissionCheck();
  const sees = (figure: keyof typeof DashboardFigurePermission) => can(DashboardFigurePermission[figure]);
  const shownDeviceCards = deviceCards.filter(({ key }) => sees(key));
  const shownCards = cards.filter(({ key }) => sees(key));
  const seesEvents = sees('eventsByHour');
  const seesAccess = sees('accessByHour');
  const seesLogins = sees('loginsLast7Days');
  const deviceCharts = (['devicesBySystem', 'alarmsByLevel', 'attendanceToday', 'cabinets'] as const).filter((key) => sees(key));
  const summary = useDashboardSummary(shownCards.length > 0 || seesLogins);
  const devices = useDashboardDevices(shownDeviceCards.length > 0 || seesEvents || seesAccess || deviceCharts.length > 0);
  useLiveDeviceFigures();

  if (shownDeviceCards.length + shownCards.length + deviceCharts.length === 0 && !seesEvents && !seesAccess && !seesLogins) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noFigures')} />;
  }

  if (summary.isError) {
    return (
      <LazyResult
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
      {(seesEvents || seesAccess) && (
        <ChartCard title={t('dashboard.eventsByHour')} loading={!figures} lg={24}>
          {() => <AccessHourChart access={seesAccess ? figures?.accessByHour : undefined} events={seesEvents ? figures?.eventsByHour : undefined} />}
        </ChartCard>
      )}
      {deviceCharts.map((key) => (
        <ChartCard key={key} title={t(`dashboard.${key}`)} loading={!figures} lg={deviceCharts.length === 4 ? 6 : 24 / deviceCharts.length}>
          {() => chartOf(key, figures!)}
        </ChartCard>
      ))}
      {shownCards.map(({ key, icon }) => (
        <Col key={key} xs={12} lg={8} xl={{ flex: '20%' }}>
          <Card variant="borderless">
            <Skeleton active loading={!data} paragraph={{ rows: 1 }}>
              <Statistic title={t(`dashboard.${key}`)} value={data?.[key] ?? 0} prefix={icon} groupSeparator="," />
            </Skeleton>
          </Card>
        </Col>
      ))}
      {seesLogins && (
        <ChartCard title={t('dashboard.loginsLast7Days')} loading={!data} lg={24}>
          {() => <LoginWeekChart days={data?.loginsLast7Days ?? []} />}
        </ChartCard>
      )}
    </Row>
  );
}

function chartOf(key: 'devicesBySystem' | 'alarmsByLevel' | 'attendanceToday' | 'cabinets', figures: DashboardDevices): ReactNode {
  switch (key) {
    case 'devicesBySystem':
      return <DeviceSystemChart systems={figures.devicesBySystem ?? []} />;
    case 'alarmsByLevel':
      return <AlarmLevelChart levels={figures.alarmsByLevel ?? { L: 0, M: 0, H: 0 }} />;
    case 'attendanceToday':
      return <AttendanceChart attendance={figures.attendanceToday ?? { normal: 0, late: 0, absent: 0 }} />;
    case 'cabinets':
      return <CabinetChart cabinets={figures.cabinets ?? { occupied: 0, free: 0 }} />;
  }
}
