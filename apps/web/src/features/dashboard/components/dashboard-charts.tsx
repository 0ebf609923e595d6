import { theme } from 'antd';
import { ALARM_LEVELS, type DashboardDevices, type DashboardSummary } from '@isps/contract';
import { useTranslation } from 'react-i18next';
import { BarFigure, PieFigure } from './figure-chart.tsx';

type Figures = Required<DashboardDevices>;

const hourLabel = (t: (key: string, options: Record<string, unknown>) => string, hour: number) => t('dashboard.hourLabel', { hour: String(hour).padStart(2, '0') });

/** Today's openings and denials per hour as bars, all device events as a line over them. */
export function AccessHourChart({ access, events }: { access: Figures['accessByHour'] | undefined; events: number[] | undefined }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const hours = Array.from({ length: 24 }, (_, hour) => hourLabel(t, hour));
  const series = [
    ...(access
      ? [
          { key: 'openings', label: t('dashboard.openings'), color: token.colorPrimary, values: access.openings },
          { key: 'denials', label: t('dashboard.denials'), color: token.colorError, values: access.denials },
        ]
      : []),
    ...(events ? [{ key: 'events', label: t('dashboard.allEvents'), color: token.colorWarning, values: events, line: true }] : []),
  ];
  return <BarFigure title={t('dashboard.eventsByHour')} categoryLabel={t('dashboard.hour')} categories={hours} series={series} testId="chart-access" />;
}

/** Devices online and offline per device system, stacked. */
export function DeviceSystemChart({ systems }: { systems: Figures['devicesBySystem'] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <BarFigure
      title={t('dashboard.devicesBySystem')}
      categoryLabel={t('dashboard.system')}
      categories={systems.map((s) => t(`dashboard.system.${s.system}`))}
      series={[
        { key: 'online', label: t('dashboard.online'), color: token.colorSuccess, values: systems.map((s) => s.online) },
        { key: 'offline', label: t('dashboard.offline'), color: token.colorTextQuaternary, values: systems.map((s) => s.offline) },
      ]}
      stacked
      horizontal
      height={220}
      testId="chart-devices"
    />
  );
}

/** Open alarms per level, the most urgent first. */
export function AlarmLevelChart({ levels }: { levels: Figures['alarmsByLevel'] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const colors = { H: token.colorError, M: token.colorWarning, L: token.colorInfo };
  const slices = [...ALARM_LEVELS].reverse().map((level) => ({ key: level, label: t(`dashboard.level.${level}`), color: colors[level], value: levels[level] }));
  return <PieFigure title={t('dashboard.alarmsByLevel')} categoryLabel={t('dashboard.level')} valueLabel={t('dashboard.count')} slices={slices} testId="chart-alarms" />;
}

/** Today's attendance: normal, late and absent. */
export function AttendanceChart({ attendance }: { attendance: Figures['attendanceToday'] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const slices = [
    { key: 'normal', label: t('dashboard.attendance.normal'), color: token.colorSuccess, value: attendance.normal },
    { key: 'late', label: t('dashboard.attendance.late'), color: token.colorWarning, value: attendance.late },
    { key: 'absent', label: t('dashboard.attendance.absent'), color: token.colorError, value: attendance.absent },
  ];
  return <PieFigure title={t('dashboard.attendanceToday')} categoryLabel={t('dashboard.attendanceStatus')} valueLabel={t('dashboard.count')} slices={slices} testId="chart-attendance" />;
}

/** Cabinets occupied and free. */
export function CabinetChart({ cabinets }: { cabinets: Figures['cabinets'] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const slices = [
    { key: 'occupied', label: t('dashboard.cabinets.occupied'), color: token.colorPrimary, value: cabinets.occupied },
    { key: 'free', label: t('dashboard.cabinets.free'), color: token.colorBorder, value: cabinets.free },
  ];
  return <PieFigure title={t('dashboard.cabinets')} categoryLabel={t('dashboard.cabinetState')} valueLabel={t('dashboard.count')} slices={slices} testId="chart-cabinets" />;
}

/** Sign-ins of the last seven days, each day named in the chosen language. */
export function LoginWeekChart({ days }: { days: NonNullable<DashboardSummary['loginsLast7Days']> }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const format = new Intl.DateTimeFormat(i18n.language, { month: 'numeric', day: 'numeric', timeZone: 'UTC' });
  return (
    <BarFigure
      title={t('dashboard.loginsLast7Days')}
      categoryLabel={t('dashboard.day')}
      categories={days.map((d) => format.format(new Date(`${d.date}T00:00:00Z`)))}
      series={[{ key: 'logins', label: t('dashboard.logins'), color: token.colorPrimary, values: days.map((d) => d.count) }]}
      height={220}
      testId="chart-logins"
    />
  );
}
