import { AlertOutlined, ApiOutlined, CalendarOutlined, InboxOutlined, LoginOutlined, SwapOutlined, UnlockOutlined } from '@ant-design/icons';
import { DashboardFigurePermission, type DashboardDevices, type DashboardSummary } from '@isps/contract';
import { Card, Col, Empty, Row, Skeleton, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { useDashboardDevices } from '../api/get-dashboard-devices.ts';
import { useDashboardSummary } from '../api/get-dashboard-summary.ts';
import styles from './panel.module.css';

type Devices = Required<DashboardDevices>;

interface PanelCard {
  key: string;
  figure: keyof typeof DashboardFigurePermission;
  /** the screen the card opens, and the permission to open it */
  to: string;
  opens: string;
  icon: ReactNode;
  value: (devices: Devices, summary: Required<DashboardSummary>) => number;
  detail?: (devices: Devices, summary: Required<DashboardSummary>) => Record<string, number>;
  from: 'devices' | 'summary';
}

const sum = (values: number[]) => values.reduce((s, n) => s + n, 0);

const panelCards: PanelCard[] = [
  { key: 'devicesOnline', figure: 'devicesBySystem', to: '/device/list', opens: 'device:list:list', icon: <ApiOutlined />, from: 'devices', value: (d) => sum(d.devicesBySystem.map((s) => s.online)), detail: (d) => ({ online: sum(d.devicesBySystem.map((s) => s.online)), offline: sum(d.devicesBySystem.map((s) => s.offline)) }) },
  { key: 'doorsOpen', figure: 'doorsOpen', to: '/device/doorStatus', opens: 'device:doorStatus:view', icon: <UnlockOutlined />, from: 'devices', value: (d) => d.doorsOpen },
  { key: 'openAlarms', figure: 'alarmsByLevel', to: '/device/alarm', opens: 'device:alarm:list', icon: <AlertOutlined />, from: 'devices', value: (d) => sum(Object.values(d.alarmsByLevel)), detail: (d) => d.alarmsByLevel },
  { key: 'accessToday', figure: 'accessByHour', to: '/device/accessEvent', opens: 'device:accessEvent:list', icon: <SwapOutlined />, from: 'devices', value: (d) => sum(d.accessByHour.openings) + sum(d.accessByHour.denials), detail: (d) => ({ openings: sum(d.accessByHour.openings), denials: sum(d.accessByHour.denials) }) },
  { key: 'attendanceToday', figure: 'attendanceToday', to: '/device/attendance', opens: 'device:attendance:list', icon: <CalendarOutlined />, from: 'devices', value: (d) => d.attendanceToday.normal + d.attendanceToday.late + d.attendanceToday.absent, detail: (d) => d.attendanceToday },
  { key: 'cabinets', figure: 'cabinets', to: '/device/cabinet', opens: 'device:cabinet:list', icon: <InboxOutlined />, from: 'devices', value: (d) => d.cabinets.occupied, detail: (d) => d.cabinets },
  { key: 'loginsToday', figure: 'loginsToday', to: '/system/log', opens: 'system:log:list', icon: <LoginOutlined />, from: 'summary', value: (_, s) => s.loginsToday },
];

const details: Record<string, string> = {
  devicesOnline: 'dashboard.devicesDetail',
  openAlarms: 'dashboard.alarmsDetail',
  accessToday: 'dashboard.accessTodayDetail',
  attendanceToday: 'dashboard.attendanceTodayDetail',
  cabinets: 'dashboard.cabinetsDetail',
};

/**
 * The dashboard's panel: today's figures at a glance, each card opening the screen behind it (a card the reader may
 * not open is shown without the link); only the figures the reader's permissions cover.
 */
export default function PanelPage() {
  const { t, i18n } = useTranslation();
  const can = usePermissionCheck();
  const shown = panelCards.filter((card) => can(DashboardFigurePermission[card.figure]));
  const devices = useDashboardDevices(shown.some((c) => c.from === 'devices'));
  const summary = useDashboardSummary(shown.some((c) => c.from === 'summary'));
  const number = new Intl.NumberFormat(i18n.language);

  if (shown.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noFigures')} />;

  return (
    <div>
      <Typography.Title level={4} className={styles.title}>
        {t('dashboard.panelTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('dashboard.panelHint')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {shown.map((card) => {
          const loaded = card.from === 'devices' ? devices.data : summary.data;
          const title = t(`dashboard.${card.key}`);
          const value = loaded ? card.value(devices.data as Devices, summary.data as Required<DashboardSummary>) : 0;
          const detail = loaded && card.detail ? card.detail(devices.data as Devices, summary.data as Required<DashboardSummary>) : null;
          const body = (
            <Card variant="borderless" hoverable={can(card.opens)} className={styles.card}>
              <Skeleton active loading={!loaded} paragraph={{ rows: 1 }}>
                <Statistic title={title} value={value} prefix={card.icon} formatter={(v) => number.format(Number(v))} />
                {detail && (
                  <Typography.Text type="secondary" className={styles.detail}>
                    {t(details[card.key]!, Object.fromEntries(Object.entries(detail).map(([k, v]) => [k, number.format(v)])))}
                  </Typography.Text>
                )}
              </Skeleton>
            </Card>
          );
          return (
            <Col key={card.key} xs={24} sm={12} xl={6} data-testid={`panel-${card.key}`}>
              {can(card.opens) ? (
                <Link to={card.to} className={styles.link}>
                  {body}
                </Link>
              ) : (
                body
              )}
            </Col>
          );
        })}
      </Row>
    </div>
  );
}
