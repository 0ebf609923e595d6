import { DownloadOutlined, ScheduleOutlined } from '@ant-design/icons';
import { REPORT_FILTERS, REPORT_MAX_ROWS, REPORT_SCREENS, reportPermission, type ReportFilters, type ReportKind, type ReportResult, type ReportScreen } from '@isps/contract';
import { Alert, App, Button, Card, DatePicker, Empty, Flex, Grid, Select, Skeleton, Table, Tabs } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EntitySelect } from '../../shared/crud/index.ts';
import { usePermission } from '../../shared/permission/index.ts';
import { toWire } from '../../shared/time/index.ts';
import { useExportReport, useReport, type ReportRequest } from './api/reports.ts';
import { cellLabel, NAME_COLUMNS } from './cells.ts';
import ReportChart from './report-chart.tsx';
import styles from './report-screen.module.css';
import { ScheduleDialog } from './schedule-dialog.tsx';

/** The entity each filter picks from, and the field naming its rows. */
const FILTER_ENTITIES: Record<keyof ReportFilters, { entity: string; label: string }> = {
  doorId: { entity: 'door', label: 'doorName' },
  peopleId: { entity: 'people', label: 'name' },
  areaId: { entity: 'area', label: 'areaName' },
  departId: { entity: 'depart', label: 'departName' },
  deviceId: { entity: 'device', label: 'deviceName' },
};

/** The period a range of days covers: from the first day's start to the start of the day after the last. */
export function periodOf([from, to]: [Dayjs, Dayjs]): { begin: string; end: string } {
  return { begin: toWire(from.startOf('day')), end: toWire(to.add(1, 'day').startOf('day')) };
}

/** no row, or (hours, which are always all there) no passage in any hour */
const isEmpty = (result: ReportResult) => result.rows.length === 0 || result.rows.every((row) => !Number(row.total ?? 1));

function ReportTable({ result }: { result: ReportResult }) {
  const { t } = useTranslation();
  const columns = result.columns.map((c) => ({
    key: c,
    dataIndex: c,
    title: t(`report.column.${c}`),
    align: NAME_COLUMNS.has(c) ? ('left' as const) : ('right' as const),
    render: (value: string | number | null) => cellLabel(t, c, value),
  }));
  return (
    <Table
      size="small"
      rowKey={(row) => String(row.key)}
      columns={columns}
      dataSource={result.rows}
      pagination={result.rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
      scroll={{ x: 'max-content' }}
      aria-label={t(`report.name.${result.kind}`)}
    />
  );
}

/** One report: its period and filters, a chart and a table of its figures, and its export. */
function ReportPanel({ screen, kind, onFilters }: { screen: ReportScreen; kind: ReportKind; onFilters: (filters: ReportFilters) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const mayExport = usePermission(reportPermission(screen, 'export'));
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(6, 'day'), dayjs()]);
  const [filters, setFilters] = useState<ReportFilters>({});
  const request: ReportRequest = { kind, ...periodOf(range), ...filters };
  const report = useReport(screen, request);
  const exporter = useExportReport(screen);
  const result = report.data?.kind === kind ? report.data : undefined;
  const download = async () => {
    await exporter.mutateAsync(request);
    void message.success(t('crud.exported'));
  };
  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={8} align="center" className={styles.toolbar}>
        <DatePicker.RangePicker
          aria-label={t('reportScreen.period')}
          value={range}
          allowClear={false}
          className={styles.range}
          onChange={(value) => value?.[0] && value[1] && setRange([value[0], value[1]])}
        />
        {REPORT_FILTERS[kind].map((filter) => (
          <div key={filter} className={styles.filter}>
            <label htmlFor={`report-${kind}-${filter}`} className={styles.filterName}>
              {t(`reportScreen.filter.${filter}`)}
            </label>
            <div className={styles.filterControl}>
              <EntitySelect
                id={`report-${kind}-${filter}`}
                entityName={FILTER_ENTITIES[filter].entity}
                labelField={FILTER_ENTITIES[filter].label}
                value={filters[filter]}
                onChange={(value) => {
                  const next = { ...filters, [filter]: (value as string | undefined) || undefined };
                  setFilters(next);
                  onFilters(next);
                }}
              />
            </div>
          </div>
        ))}
        {mayExport ? (
          <Button icon={<DownloadOutlined />} loading={exporter.isPending} disabled={!result} onClick={() => void download().catch(() => undefined)}>
            {t('crud.export')}
          </Button>
        ) : null}
      </Flex>
      {report.isError ? <Alert type="error" showIcon title={report.error.message} /> : null}
      {!result && report.isLoading ? <Skeleton active paragraph={{ rows: 6 }} /> : null}
      {result ? (
        <>
          {result.capped ? <Alert type="info" showIcon title={t('reportScreen.capped', { max: REPORT_MAX_ROWS })} /> : null}
          {isEmpty(result) ? (
            <Empty description={t('reportScreen.empty')} />
          ) : (
            <Card size="small" loading={report.isFetching && !result}>
              <ReportChart result={result} />
            </Card>
          )}
          {result.rows.length > 0 ? <ReportTable result={result} /> : null}
        </>
      ) : null}
    </Flex>
  );
}

/** A report screen: a tab per report, and the screen's schedules. */
export function ReportScreenPage({ screen }: { screen: ReportScreen }) {
  const { t } = useTranslation();
  const maySchedule = usePermission(reportPermission(screen, 'schedule'));
  const kinds = REPORT_SCREENS[screen];
  const [active, setActive] = useState<ReportKind>(kinds[0]);
  const [scheduling, setScheduling] = useState(false);
  // the shown report's filters: a new schedule takes them
  const [filters, setFilters] = useState<ReportFilters>({});
  const choose = (kind: ReportKind) => {
    setActive(kind);
    setFilters({});
  };
  // a phone has no room for the tabs: the reports are a choice
  const narrow = !Grid.useBreakpoint().md;
  const scheduleButton = maySchedule ? (
    <Button icon={<ScheduleOutlined />} onClick={() => setScheduling(true)}>
      {t('reportScreen.schedules')}
    </Button>
  ) : null;
  return (
    <Card className={styles.screen}>
      <Tabs
        activeKey={active}
        onChange={(key) => choose(key as ReportKind)}
        destroyOnHidden
        tabBarExtraContent={scheduleButton}
        renderTabBar={
          narrow
            ? () => (
                <Flex gap={8} className={styles.choice}>
                  <Select
                    aria-label={t('reportScreen.schedule.kind')}
                    className={styles.choiceSelect}
                    value={active}
                    onChange={(key) => choose(key)}
                    options={kinds.map((kind) => ({ value: kind, label: t(`report.name.${kind}`) }))}
                  />
                  {scheduleButton}
                </Flex>
              )
            : undefined
        }
        items={kinds.map((kind) => ({ key: kind, label: t(`report.name.${kind}`), children: <ReportPanel screen={screen} kind={kind} onFilters={setFilters} /> }))}
      />
      {scheduling ? <ScheduleDialog screen={screen} kind={active} filters={filters} onClose={() => setScheduling(false)} /> : null}
    </Card>
  );
}
