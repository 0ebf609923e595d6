import { PlusOutlined } from '@ant-design/icons';
import { MessageTemplatePath, REPORT_PERIODS, REPORT_SCREENS, type Page, type ReportFilters, type ReportKind, type ReportSchedule, type ReportScheduleInput, type ReportScreen, type SysMessageTemplate } from '@isps/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Flex, Form, Modal, Popconfirm, Select, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http, unwrap } from '../../shared/api/index.ts';
import { EntitySelect } from '../../shared/crud/index.ts';
import { formatTime } from '../../shared/time/index.ts';
import { CronInput } from '../../shared/ui/cron-input.tsx';
import { useDeleteReportSchedule, useReportSchedules, useSaveReportSchedule, useSendReportSchedule } from './api/reports.ts';

interface FormValues {
  reportKind: ReportKind;
  period: ReportScheduleInput['period'];
  recipients: string[];
  templateCode?: string;
  cronExpression: string;
  running: boolean;
}

function useTemplates() {
  return useQuery({
    queryKey: ['report', 'templates'],
    queryFn: async () => unwrap(await http.get<Page<SysMessageTemplate>>(MessageTemplatePath.list, { pageNo: 1, pageSize: 200 })).records,
  });
}

/** A schedule's form: which report, which period, to whom, through which template, when; a new one takes the shown report's filters. */
function ScheduleForm({ screen, kind, filters, editing, onDone }: { screen: ReportScreen; kind: ReportKind; filters: ReportFilters; editing: ReportSchedule | null; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const save = useSaveReportSchedule(screen);
  const templates = useTemplates();
  const initial: FormValues = editing
    ? { reportKind: editing.reportKind, period: editing.period, recipients: editing.recipients, templateCode: editing.templateCode, cronExpression: editing.cronExpression, running: editing.status === 0 }
    : { reportKind: kind, period: 'lastDay', recipients: [], templateCode: undefined, cronExpression: '0 0 7 * * ?', running: true };
  const submit = async () => {
    const values = await form.validateFields();
    const input: ReportScheduleInput = { reportKind: values.reportKind, period: values.period, filters: editing?.filters ?? filters, recipients: values.recipients, templateCode: values.templateCode ?? '', cronExpression: values.cronExpression, status: values.running ? 0 : -1 };
    await save.mutateAsync({ id: editing?.id, input });
    void message.success(t(editing ? 'crud.edited' : 'crud.added'));
    onDone();
  };
  const required = [{ required: true, message: t('crud.select') }];
  return (
    <Modal open title={t(editing ? 'reportScreen.schedule.edit' : 'reportScreen.schedule.add')} okText={t('common.ok')} cancelText={t('common.cancel')} confirmLoading={save.isPending} onOk={() => void submit().catch(() => undefined)} onCancel={onDone} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial} name="report-schedule">
        <Form.Item name="reportKind" label={t('reportScreen.schedule.kind')} rules={required}>
          <Select options={REPORT_SCREENS[screen].map((k) => ({ value: k, label: t(`report.name.${k}`) }))} />
        </Form.Item>
        <Form.Item name="period" label={t('reportScreen.period')} rules={required}>
          <Select options={REPORT_PERIODS.map((p) => ({ value: p, label: t(`reportScreen.period.${p}`) }))} />
        </Form.Item>
        <Form.Item name="recipients" label={t('reportScreen.schedule.recipients')} rules={required}>
          <EntitySelect entityName="user" labelField="realname" multiple />
        </Form.Item>
        <Form.Item name="templateCode" label={t('reportScreen.schedule.template')} rules={required} extra={t('reportScreen.schedule.templateHelp')}>
          <Select showSearch={{ optionFilterProp: 'label' }} placeholder={t('crud.select')} loading={templates.isLoading} options={(templates.data ?? []).map((tpl) => ({ value: tpl.templateCode, label: `${tpl.templateName} (${tpl.templateCode})` }))} />
        </Form.Item>
        <Form.Item name="cronExpression" label={t('reportScreen.schedule.cron')} rules={required}>
          <CronInput />
        </Form.Item>
        <Form.Item name="running" label={t('reportScreen.schedule.running')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The schedules of a report screen: each mails its report to chosen users through a message template. */
export function ScheduleDialog({ screen, kind, filters, onClose }: { screen: ReportScreen; kind: ReportKind; filters: ReportFilters; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const schedules = useReportSchedules(screen, true);
  const remove = useDeleteReportSchedule(screen);
  const send = useSendReportSchedule(screen);
  const [editing, setEditing] = useState<ReportSchedule | null | 'new'>(null);
  const sendNow = async (id: string) => {
    const { outcome } = await send.mutateAsync(id);
    void message.success(outcome);
  };
  const columns = [
    { key: 'kind', title: t('reportScreen.schedule.kind'), render: (s: ReportSchedule) => t(`report.name.${s.reportKind}`) },
    { key: 'period', title: t('reportScreen.period'), render: (s: ReportSchedule) => t(`reportScreen.period.${s.period}`) },
    { key: 'recipients', title: t('reportScreen.schedule.recipients'), render: (s: ReportSchedule) => s.recipientNames.join(', ') },
    { key: 'cron', title: t('reportScreen.schedule.cron'), render: (s: ReportSchedule) => <Typography.Text code>{s.cronExpression}</Typography.Text> },
    { key: 'last', title: t('reportScreen.schedule.lastSend'), render: (s: ReportSchedule) => (s.lastSendTime ? `${formatTime(s.lastSendTime)} · ${s.lastResult ?? ''}` : '') },
    {
      key: 'actions',
      title: t('crud.actions'),
      render: (s: ReportSchedule) => (
        <Flex gap={4} wrap>
          <Button size="small" type="link" onClick={() => setEditing(s)}>
            {t('crud.edit')}
          </Button>
          <Button size="small" type="link" loading={send.isPending && send.variables === s.id} onClick={() => void sendNow(s.id).catch(() => undefined)}>
            {t('reportScreen.schedule.sendNow')}
          </Button>
          <Popconfirm title={t('reportScreen.schedule.deleteConfirm')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => remove.mutateAsync(s.id).then(() => void message.success(t('crud.deleted')))}>
            <Button size="small" type="link" danger>
              {t('crud.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];
  return (
    <Modal open title={t('reportScreen.schedule.title')} width={960} footer={null} onCancel={onClose} destroyOnHidden>
      <Flex vertical gap={12}>
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Text type="secondary">{t('reportScreen.schedule.intro')}</Typography.Text>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('reportScreen.schedule.add')}
          </Button>
        </Flex>
        <Table
          size="small"
          rowKey="id"
          loading={schedules.isLoading}
          columns={columns}
          dataSource={schedules.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reportScreen.schedule.none')} /> }}
        />
      </Flex>
      {editing ? <ScheduleForm screen={screen} kind={kind} filters={filters} editing={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}
    </Modal>
  );
}
