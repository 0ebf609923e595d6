import { App, DatePicker, Form, Input, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { askVisit, useVisitChange, useVisitHosts } from '../api/my-visits.ts';

const WIRE = 'YYYY-MM-DD HH:mm:ss';

interface AskValues {
  hostId?: string;
  window?: [Dayjs | null, Dayjs | null];
  remark?: string;
}

/** The visitor asks a host for a visit: the host found by name, the window (not past, the end after the start), why. */
export function AskVisitModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<AskValues>();
  const [name, setName] = useState('');
  const hosts = useVisitHosts(name);
  const ask = useVisitChange(askVisit);
  const submit = async () => {
    const values = await form.validateFields();
    const [start, end] = values.window ?? [null, null];
    try {
      const envelope = await ask.mutateAsync({ hostId: values.hostId, startTime: start?.format(WIRE), endTime: end?.format(WIRE), remark: values.remark ?? '' });
      void message.success(envelope.message);
      form.resetFields();
      onClose();
    } catch (error) {
      void message.error((error as Error).message);
    }
  };
  return (
    <Modal open={open} title={t('visitorArea.askTitle')} okText={t('visitorArea.send')} cancelText={t('common.cancel')} confirmLoading={ask.isPending} onOk={() => void submit().catch(() => undefined)} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" name="ask-visit" preserve={false}>
        <Form.Item name="hostId" label={t('visitorArea.host')} rules={[{ required: true, message: t('visitorArea.hostRequired') }]}>
          <Select
            showSearch={{ filterOption: false, onSearch: setName }}
            loading={hosts.isFetching}
            placeholder={t('visitorArea.hostSearch')}
            notFoundContent={t('visitorArea.noHosts')}
            options={(hosts.data ?? []).map((h) => ({ value: h.id, label: h.realname }))}
          />
        </Form.Item>
        <Form.Item
          name="window"
          label={t('visitorArea.window')}
          rules={[
            { required: true, message: t('visitorArea.windowRequired') },
            {
              validator: (_, value: AskValues['window']) => {
                const [start, end] = value ?? [null, null];
                if (start && start.isBefore(dayjs().subtract(5, 'minute'))) return Promise.reject(new Error(t('visitorArea.startPast')));
                if (start && end && !end.isAfter(start)) return Promise.reject(new Error(t('visitorArea.windowOrder')));
                return Promise.resolve();
              },
            },
          ]}
        >
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} />
        </Form.Item>
        <Form.Item name="remark" label={t('visitorArea.reason')}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
