import { SendOutlined } from '@ant-design/icons';
import { INTERFACE_TEST_COMMANDS, INTERFACE_TEST_WAIT_MS, MAX_DEVICE_CABINETS, type InterfaceTestBody, type InterfaceTestCommand, type InterfaceTestResult } from '@isps/contract';
import { Alert, App, Button, Card, Descriptions, Empty, Flex, Form, InputNumber, Select, Spin, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, toWire } from '../../../shared/time/index.ts';
import { LoadFailed } from '../../../shared/ui/index.ts';
import { useCabinetDevices } from '../api/cabinet-devices.ts';
import { useSendInterfaceTest } from '../api/interface-test.ts';

/** How many results the page keeps (the newest first). */
export const HISTORY_SIZE = 5;

/** The commands that act on one cabinet and so need its number. */
const needsCabinet = (command: InterfaceTestCommand | undefined) => command === 'open' || command === 'clear';

interface TestValues {
  deviceId?: string;
  command: InterfaceTestCommand;
  cabinetNo?: number | null;
}

/** One result of a test as the page keeps it: what was sent to which device, and what came back. */
interface TestOutcome {
  key: number;
  sentAt: string;
  deviceName: string;
  command: InterfaceTestCommand;
  cabinetNo?: number;
  /** the server's words for it (answered, or no answer in time) */
  message: string;
  result: InterfaceTestResult;
}

/** The result's outcome as a tag: answered and done, answered and failed, or no answer in time. */
function OutcomeTag({ result }: { result: InterfaceTestResult }) {
  const { t } = useTranslation();
  if (result.status === 'timeout') return <Tag color="warning">{t('interfaceTest.timeout')}</Tag>;
  return result.ok ? <Tag color="success">{t('interfaceTest.ok')}</Tag> : <Tag color="error">{t('interfaceTest.failed')}</Tag>;
}

const replyText = (reply: unknown) => (reply === null || reply === undefined ? '' : JSON.stringify(reply, null, 2));

/** The latest result: the device's answer (done or failed, its reply, how long it took) or the server's word that none came. */
function ResultCard({ outcome }: { outcome: TestOutcome }) {
  const { t } = useTranslation();
  const { result } = outcome;
  const reply = replyText(result.reply);
  return (
    <Card size="small" title={t('interfaceTest.result')} data-testid="interface-test-result" data-status={result.status}>
      <Flex vertical gap={12}>
        {result.status === 'timeout' ? <Alert type="warning" showIcon title={outcome.message} /> : null}
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'device', label: t('storageInterfaceTest.field.deviceId'), children: outcome.deviceName },
            {
              key: 'command',
              label: t('storageInterfaceTest.field.command'),
              children: outcome.cabinetNo === undefined ? t(`storageInterfaceTest.command.${outcome.command}`) : `${t(`storageInterfaceTest.command.${outcome.command}`)} #${outcome.cabinetNo}`,
            },
            { key: 'outcome', label: t('interfaceTest.outcome'), children: <OutcomeTag result={result} /> },
            { key: 'elapsed', label: t('interfaceTest.elapsed'), children: t('interfaceTest.elapsedMs', { ms: result.elapsedMs }) },
          ]}
        />
        {result.status === 'answered' ? (
          reply ? (
            <div>
              <Typography.Text type="secondary">{t('interfaceTest.reply')}</Typography.Text>
              <pre data-testid="interface-test-reply" style={{ margin: '4px 0 0', padding: 8, maxHeight: 320, overflow: 'auto', background: 'rgba(0, 0, 0, 0.04)', borderRadius: 6 }}>
                {reply}
              </pre>
            </div>
          ) : (
            <Typography.Text type="secondary">{t('interfaceTest.noReply')}</Typography.Text>
          )
        ) : null}
      </Flex>
    </Card>
  );
}

/**
 * The interface test: sends one command (the terminal's status, open or clear a cabinet, compare and align) to a
 * cabinet device and shows what it answered, or that it did not answer within the server's wait; the last few results
 * stay listed below.
 */
export default function InterfaceTestPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TestValues>();
  const command = Form.useWatch('command', form);
  const devices = useCabinetDevices();
  const send = useSendInterfaceTest();
  const [history, setHistory] = useState<TestOutcome[]>([]);
  const sent = useRef(0);

  const submit = async (values: TestValues) => {
    if (!values.deviceId) return;
    const body: InterfaceTestBody = { deviceId: values.deviceId, command: values.command, ...(needsCabinet(values.command) && values.cabinetNo ? { cabinetNo: values.cabinetNo } : {}) };
    const deviceName = devices.data?.find((d) => d.id === values.deviceId)?.deviceName ?? values.deviceId;
    try {
      const envelope = await send.mutateAsync(body);
      if (!envelope.success || !envelope.result) return void message.warning(envelope.message);
      const outcome: TestOutcome = { key: ++sent.current, sentAt: toWire(dayjs()), deviceName, command: body.command, cabinetNo: body.cabinetNo, message: envelope.message, result: envelope.result };
      setHistory((past) => [outcome, ...past].slice(0, HISTORY_SIZE));
    } catch {
      // the request layer has shown why
    }
  };

  if (devices.isError && !devices.data) return <LoadFailed onRetry={() => void devices.refetch()} />;
  const latest = history[0];
  return (
    <Flex vertical gap={16} data-testid="interface-test">
      <Card title={t('storageInterfaceTest.title')}>
        <Form<TestValues> form={form} layout="vertical" name="storage-interface-test" initialValues={{ command: 'status' }} onFinish={(values) => void submit(values)} style={{ maxWidth: 560 }}>
          <Form.Item name="deviceId" label={t('storageInterfaceTest.field.deviceId')} rules={[{ required: true, message: t('interfaceTest.deviceRequired') }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={devices.isLoading}
              placeholder={t('crud.select')}
              notFoundContent={devices.isLoading ? undefined : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('interfaceTest.noDevices')} />}
              options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.online === 0 ? `${d.deviceName} (${t('device.offline')})` : d.deviceName }))}
            />
          </Form.Item>
          <Form.Item name="command" label={t('storageInterfaceTest.field.command')} rules={[{ required: true }]}>
            <Select options={INTERFACE_TEST_COMMANDS.map((c) => ({ value: c, label: t(`storageInterfaceTest.command.${c}`) }))} />
          </Form.Item>
          {/* checked against the command the form holds, not the one last drawn: a quick Send after the pick still asks for it */}
          <Form.Item
            name="cabinetNo"
            label={t('storageInterfaceTest.field.cabinetNo')}
            hidden={!needsCabinet(command)}
            dependencies={['command']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, value: unknown) =>
                  needsCabinet(getFieldValue('command') as InterfaceTestCommand) && (value === null || value === undefined) ? Promise.reject(new Error(t('interfaceTest.cabinetRequired'))) : Promise.resolve(),
              }),
            ]}
          >
            <InputNumber min={1} max={MAX_DEVICE_CABINETS} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={send.isPending} data-command="send">
            {t('interfaceTest.send')}
          </Button>
        </Form>
      </Card>
      {send.isPending ? (
        <Card size="small">
          <Flex justify="center" style={{ padding: 24 }} data-testid="interface-test-waiting">
            <Spin description={t('interfaceTest.waiting', { seconds: INTERFACE_TEST_WAIT_MS / 1000 })}>
              <div style={{ width: 240, height: 48 }} />
            </Spin>
          </Flex>
        </Card>
      ) : latest ? (
        <ResultCard key={latest.key} outcome={latest} />
      ) : null}
      {history.length > 0 ? (
        <Card size="small" title={t('interfaceTest.history')}>
          <Table<TestOutcome>
            aria-label={t('interfaceTest.history')}
            rowKey="key"
            size="small"
            pagination={false}
            scroll={{ x: true }}
            dataSource={history}
            columns={[
              { key: 'sentAt', title: t('interfaceTest.sentAt'), render: (_: unknown, o) => formatTime(o.sentAt, 'datetime'), width: 180 },
              { key: 'device', title: t('storageInterfaceTest.field.deviceId'), render: (_: unknown, o) => o.deviceName },
              {
                key: 'command',
                title: t('storageInterfaceTest.field.command'),
                render: (_: unknown, o) => (o.cabinetNo === undefined ? t(`storageInterfaceTest.command.${o.command}`) : `${t(`storageInterfaceTest.command.${o.command}`)} #${o.cabinetNo}`),
              },
              { key: 'outcome', title: t('interfaceTest.outcome'), render: (_: unknown, o) => <OutcomeTag result={o.result} /> },
              { key: 'elapsed', title: t('interfaceTest.elapsed'), render: (_: unknown, o) => t('interfaceTest.elapsedMs', { ms: o.result.elapsedMs }) },
            ]}
          />
        </Card>
      ) : null}
    </Flex>
  );
}
