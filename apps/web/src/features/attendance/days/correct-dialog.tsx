import { ATTENDANCE_STATUSES, type AttendanceStatus } from '@isps/contract';
import { App, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCorrectDay } from '../api/correct-day.ts';
import { StatusTag } from '../status.tsx';

interface Values {
  status: AttendanceStatus;
  reason: string;
}

/** An operator's correction of a day: the result it should have, and why (kept with the day and in the operation log). */
export function CorrectDialog({ dayId, day, status, onClose }: { dayId: string; day: string; status: AttendanceStatus; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const correct = useCorrectDay();
  const submit = async () => {
    const values = await form.validateFields();
    try {
      const envelope = await correct.mutateAsync({ id: dayId, status: values.status, reason: values.reason.trim() });
      if (!envelope.success) return void message.error(envelope.message);
      void message.success(envelope.message);
      onClose();
    } catch {
      // the request layer has shown why
    }
  };
  return (
    <Modal open title={t('attendance.correctTitle', { day })} onCancel={onClose} onOk={() => void submit()} okText={t('common.ok')} cancelText={t('common.cancel')} confirmLoading={correct.isPending} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ status, reason: '' }}>
        <Form.Item name="status" label={t('attendance.field.status')} rules={[{ required: true }]}>
          <Select options={ATTENDANCE_STATUSES.map(([, value]) => ({ value, label: <StatusTag status={value} /> }))} />
        </Form.Item>
        <Form.Item name="reason" label={t('attendance.reason')} rules={[{ required: true, whitespace: true, message: t('attendance.reason') }, { max: 200 }]}>
          <Input.TextArea rows={3} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
