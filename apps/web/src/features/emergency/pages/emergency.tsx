import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { EMERGENCY_INTENSITY_MAX, EMERGENCY_INTENSITY_MIN, EmergencyPerm, thresholdInRange, type EmergencyReport, type EmergencyScenario, type EmergencySetting, type RollCallEntry } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Drawer, Empty, Flex, Form, InputNumber, List, Popconfirm, Select, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../shared/permission/index.ts';
import { formatTime } from '../../../shared/time/index.ts';
import { useDrawerSize } from '../../../shared/ui/index.ts';
import { emergencyKey, useEmergency } from '../api/emergency.ts';
import { reportsKey, useEmergencies, useReport } from '../api/emergency-reports.ts';
import { emergencySettingKey, useDoorChoices, useEmergencySetting, useSaveEmergencySetting } from '../api/emergency-setting.ts';
import { useExportRollCall } from '../api/export-roll-call.ts';
import { useStartDrill } from '../api/start-drill.ts';
import { useRollCallPrint } from '../roll-call-sheet.tsx';

type T = ReturnType<typeof useTranslation>['t'];

function kindOf(t: T, scenario: EmergencyScenario): string {
  return scenario.drill ? t('emergency.reports.drill') : t('emergency.reports.quake', { intensity: scenario.intensity });
}

function reportLines(t: T, scenario: EmergencyScenario): string[] {
  return [
    `${kindOf(t, scenario)}${scenario.deviceName ? ` · ${scenario.deviceName}` : ''}`,
    t('emergency.report.started', { time: formatTime(scenario.startTime, 'datetime'), user: scenario.startBy ?? '' }),
    scenario.endTime ? t('emergency.report.ended', { time: formatTime(scenario.endTime, 'datetime'), user: scenario.endBy ?? '' }) : t('emergency.report.stillRunning'),
  ];
}

/** The threshold setting: whether quake readings run the scenario, from which intensity, and which doors it holds open. */
function SettingCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const setting = useEmergencySetting();
  const doors = useDoorChoices();
  const save = useSaveEmergencySetting();
  const mayEdit = usePermission(EmergencyPerm.edit);

  const submit = async (values: EmergencySetting) => {
    const answer = await save.mutateAsync(values);
    if (!answer.success) return;
    void message.success(answer.message);
    client.setQueryData(emergencySettingKey, answer.result);
  };
  const range = t('emergency.setting.thresholdRange', { min: EMERGENCY_INTENSITY_MIN, max: EMERGENCY_INTENSITY_MAX });

  return (
    <Card title={t('menu.device.emergency')} variant="borderless">
      <Skeleton active loading={!setting.data}>
        {setting.data ? (
          <Form<EmergencySetting> layout="vertical" initialValues={setting.data} onFinish={submit} disabled={!mayEdit} style={{ maxWidth: 640 }}>
            <Form.Item name="enabled" label={t('emergency.setting.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item
              name="threshold"
              label={t('emergency.setting.threshold')}
              extra={t('emergency.setting.thresholdHelp')}
              // no min or max on the input: it would clamp 99 to 12 silently; the rule names the range instead
              rules={[{ validator: (_rule, value: unknown) => (thresholdInRange(value) ? Promise.resolve() : Promise.reject(new Error(range))) }]}
            >
              <InputNumber<number> aria-label={t('emergency.setting.threshold')} />
            </Form.Item>
            <Form.Item name="egressDoorIds" label={t('emergency.setting.egressDoors')}>
              <Select
                mode="multiple"
                allowClear
                loading={doors.isLoading}
                placeholder={t('emergency.setting.egressPlaceholder')}
                optionFilterProp="label"
                options={(doors.data ?? []).map((door) => ({ value: door.id, label: door.deviceName ? `${door.doorName} · ${door.deviceName}` : door.doorName }))}
              />
            </Form.Item>
            {mayEdit ? (
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('emergency.setting.save')}
              </Button>
            ) : null}
          </Form>
        ) : null}
      </Skeleton>
    </Card>
  );
}

/** Starts a drill after a confirmation; the alarm then shows on every console, marked as a drill. */
function DrillCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const state = useEmergency();
  const start = useStartDrill();
  const running = state.data?.active === true;

  const confirm = async () => {
    const answer = await start.mutateAsync();
    if (!answer.success) return;
    void message.success(answer.message);
    client.setQueryData(emergencyKey, { active: true, scenario: answer.result });
    void client.invalidateQueries({ queryKey: reportsKey });
  };

  return (
    <Card title={t('emergency.drill.title')} variant="borderless">
      <Typography.Paragraph>{t('emergency.drill.help')}</Typography.Paragraph>
      {running ? <Alert type="warning" showIcon message={t('emergency.drill.running')} style={{ marginBottom: 12 }} /> : null}
      <Popconfirm title={t('emergency.drill.start')} description={t('emergency.drill.confirm')} onConfirm={confirm} okText={t('emergency.drill.start')} okButtonProps={{ loading: start.isPending }} disabled={running}>
        <Button type="primary" danger disabled={running}>
          {t('emergency.drill.start')}
        </Button>
      </Popconfirm>
    </Card>
  );
}

function ReportView({ report }: { report: EmergencyReport }) {
  const { t } = useTranslation();
  const { scenario } = report;
  const safe = report.rollCall.filter((r) => r.safeBy).length;
  return (
    <Flex vertical gap={16} data-testid="emergency-report">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('emergency.reports.kind')}>
          {scenario.drill ? <Tag color="orange">{kindOf(t, scenario)}</Tag> : <Tag color="red">{kindOf(t, scenario)}</Tag>}
          {scenario.deviceName ?? ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('emergency.reports.start')}>{`${formatTime(scenario.startTime, 'datetime')} · ${scenario.startBy ?? ''}`}</Descriptions.Item>
        <Descriptions.Item label={t('emergency.reports.end')}>{scenario.endTime ? `${formatTime(scenario.endTime, 'datetime')} · ${scenario.endBy ?? ''}` : t('emergency.report.stillRunning')}</Descriptions.Item>
        <Descriptions.Item label={t('emergency.reports.doors')}>{report.doors.length > 0 ? report.doors.map((d) => d.name).join(', ') : t('emergency.report.noDoors')}</Descriptions.Item>
        <Descriptions.Item label={t('emergency.report.rollCall')}>{t('emergency.rollCallSummary', { safe, count: report.rollCall.length })}</Descriptions.Item>
      </Descriptions>
      {/* a list, not a table: each person reads whole on a phone too */}
      <List<RollCallEntry>
        size="small"
        bordered
        header={<Typography.Text strong>{t('emergency.report.rollCall')}</Typography.Text>}
        dataSource={report.rollCall}
        rowKey="peopleId"
        locale={{ emptyText: <Empty description={t('emergency.report.rollCallEmpty')} /> }}
        renderItem={(r) => (
          <List.Item>
            <Flex vertical gap={2}>
              <Typography.Text strong>{r.userNo ? `${r.name} (${r.userNo})` : r.name}</Typography.Text>
              <Typography.Text type="secondary">{[r.areaName ?? t('emergency.noArea'), r.doorName].filter(Boolean).join(' · ')}</Typography.Text>
              <div>{r.safeBy ? <Tag color="success">{t('emergency.safeBy', { user: r.safeBy, time: formatTime(r.safeTime, 'datetime') })}</Tag> : <Tag color="error">{t('emergency.report.missing')}</Tag>}</div>
            </Flex>
          </List.Item>
        )}
      />
    </Flex>
  );
}

/** One emergency's report in a drawer, with print and export of its roll call. */
function ReportDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const report = useReport(id);
  const size = useDrawerSize();
  const exporter = useExportRollCall();
  const { print, sheet } = useRollCallPrint();
  const data = report.data;
  const title = data?.scenario.drill ? t('emergency.report.drillTitle') : t('emergency.report.title');
  return (
    <Drawer
      open
      title={title}
      size={size}
      onClose={onClose}
      extra={
        data ? (
          <Space wrap>
            <Button icon={<PrinterOutlined />} onClick={() => print({ title, lines: reportLines(t, data.scenario), entries: data.rollCall })}>
              {t('emergency.print')}
            </Button>
            <Button icon={<DownloadOutlined />} loading={exporter.isPending} onClick={() => void exporter.mutateAsync(id).catch(() => undefined)}>
              {t('emergency.export')}
            </Button>
          </Space>
        ) : null
      }
    >
      <Skeleton active loading={report.isLoading}>
        {data ? <ReportView report={data} /> : null}
      </Skeleton>
      {sheet}
    </Drawer>
  );
}

/** The past and running emergencies, newest first; a row opens its report. */
function ReportsCard() {
  const { t } = useTranslation();
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [open, setOpen] = useState<string | null>(null);
  const list = useEmergencies(page.current, page.size);
  const columns = [
    { key: 'kind', title: t('emergency.reports.kind'), render: (_: unknown, r: EmergencyScenario) => <Tag color={r.drill ? 'orange' : 'red'}>{kindOf(t, r)}</Tag> },
    { key: 'start', title: t('emergency.reports.start'), render: (_: unknown, r: EmergencyScenario) => formatTime(r.startTime, 'datetime') },
    { key: 'startBy', title: t('emergency.reports.startBy'), render: (_: unknown, r: EmergencyScenario) => r.startBy ?? r.deviceName ?? '' },
    { key: 'end', title: t('emergency.reports.end'), render: (_: unknown, r: EmergencyScenario) => (r.endTime ? formatTime(r.endTime, 'datetime') : <Tag color="processing">{t('emergency.reports.running')}</Tag>) },
    { key: 'endBy', title: t('emergency.reports.endBy'), render: (_: unknown, r: EmergencyScenario) => r.endBy ?? '' },
    { key: 'doors', title: t('emergency.reports.doors'), render: (_: unknown, r: EmergencyScenario) => r.doorCount },
    {
      key: 'view',
      title: '',
      // kept in view when the table scrolls sideways on a phone
      fixed: 'right' as const,
      render: (_: unknown, r: EmergencyScenario) => (
        <Button type="link" onClick={() => setOpen(r.id)}>
          {t('emergency.reports.view')}
        </Button>
      ),
    },
  ];
  return (
    <Card title={t('emergency.reports.title')} variant="borderless">
      <Table<EmergencyScenario>
        size="small"
        rowKey="id"
        loading={list.isLoading}
        columns={columns}
        dataSource={list.data?.records ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('emergency.reports.empty')} /> }}
        pagination={{ current: page.current, pageSize: page.size, total: list.data?.total ?? 0, onChange: (current, size) => setPage({ current, size }), hideOnSinglePage: true }}
      />
      {open ? <ReportDrawer id={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}

/** The emergency scenario screen: its setting, a drill to start, and the reports of past emergencies. */
export default function EmergencyPage() {
  const mayDrill = usePermission(EmergencyPerm.drill);
  return (
    <Flex vertical gap={16}>
      <SettingCard />
      {mayDrill ? <DrillCard /> : null}
      <ReportsCard />
    </Flex>
  );
}
