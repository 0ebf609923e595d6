import { MessagePerm, SEND_TYPES, type SysMessage } from '@isps/contract';
import { Badge, Form, Input, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { translateTitle } from '../../../shared/i18n/index.ts';
import { messages } from '../api/message-center.ts';
import { ResourceScreen } from '../components/resource-screen.tsx';
import { TIME_COLUMN_WIDTH, formatTime } from '../components/format-time.ts';
import { jsonObjectRule } from '../components/json-rule.ts';

const statusBadge = { '0': 'default', '1': 'success', '2': 'error' } as const;
const defaults: Partial<SysMessage> = { esType: 'system' };

/** message/message: messages sent by the console (in-app or e-mail), with attempts and the failure reason. */
export default function MessagePage() {
  const { t } = useTranslation();
  const sendTypes = SEND_TYPES.map((v) => ({ value: v, label: t(`message.sendType.${v}`) }));
  const columns: ColumnsType<SysMessage> = [
    { title: t('message.field.esTitle'), dataIndex: 'esTitle', width: 180, ellipsis: true },
    { title: t('message.field.esReceiver'), dataIndex: 'esReceiver', width: 160, ellipsis: true },
    { title: t('message.field.esType'), dataIndex: 'esType', width: 100, render: (v: string) => t(`message.sendType.${v === 'email' ? 'email' : 'system'}`) },
    {
      title: t('message.field.esSendStatus'),
      dataIndex: 'esSendStatus',
      width: 100,
      render: (v: SysMessage['esSendStatus']) => <Badge status={statusBadge[v] ?? 'default'} text={t(`message.sendStatus.${v}`)} />,
    },
    { title: t('message.field.esSendNum'), dataIndex: 'esSendNum', width: 80 },
    // the reason of a failed send is read in full, not cut to one line
    { title: t('message.field.esResult'), dataIndex: 'esResult', width: 220 },
    { title: t('message.field.esSendTime'), dataIndex: 'esSendTime', width: TIME_COLUMN_WIDTH, render: (v: string | null) => formatTime(v) },
  ];
  return (
    <ResourceScreen<SysMessage>
      resource={messages}
      title={translateTitle('menu.message.message')}
      entityLabel={t('message.entity')}
      nameOf={(row) => row.esTitle}
      columns={columns}
      defaults={defaults}
      perms={{ add: MessagePerm.add, edit: MessagePerm.edit, delete: MessagePerm.delete }}
      filters={[
        { name: 'esTitle', label: t('message.field.esTitle'), control: <Input allowClear /> },
        { name: 'esReceiver', label: t('message.field.esReceiver'), control: <Input allowClear /> },
        { name: 'esType', label: t('message.field.esType'), control: <Select allowClear placeholder={t('crud.select')} options={sendTypes} /> },
      ]}
      formItems={
        <>
          <Form.Item name="esTitle" label={t('message.field.esTitle')} rules={[{ required: true }]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="esReceiver" label={t('message.field.esReceiver')} rules={[{ required: true }]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="esType" label={t('message.field.esType')} rules={[{ required: true }]}>
            <Select placeholder={t('crud.select')} options={sendTypes} />
          </Form.Item>
          <Form.Item name="esContent" label={t('message.field.esContent')}>
            <Input.TextArea rows={4} />
          </Form.Item>
          <Form.Item name="esParam" label={t('message.field.esParam')} rules={[jsonObjectRule(t('template.illegalJson'))]}>
            <Input.TextArea rows={3} />
          </Form.Item>
          <Form.Item name="remark" label={t('message.field.remark')}>
            <Input maxLength={500} />
          </Form.Item>
        </>
      }
    />
  );
}
