import { MessagePerm, SEND_TYPES, TEMPLATE_TYPES, renderTemplate, type SendType, type SysMessageTemplate } from '@isps/contract';
import { App, Button, Form, Input, Modal, Select, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateTitle } from '../../../shared/i18n/index.ts';
import { usePermission } from '../../../shared/permission/index.ts';
import { sendTemplateMessage, templates, useResourceAction } from '../api/message-center.ts';
import { jsonObjectRule, parseJsonObject } from '../components/json-rule.ts';
import { DIALOG_WIDTH, ResourceScreen } from '../components/resource-screen.tsx';

const defaults: Partial<SysMessageTemplate> = { templateType: '1' };

interface TestSendValues {
  testData?: string;
  receiver: string;
  msgType: SendType;
}

/** Renders the template with the test data and sends it through a real channel (in-app or e-mail). */
function TestSendModal({ template, onClose }: { template: SysMessageTemplate | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TestSendValues>();
  const send = useResourceAction('sys-messages', sendTemplateMessage);
  const testData = Form.useWatch('testData', form);

  useEffect(() => {
    if (!template) return;
    form.resetFields();
    form.setFieldsValue({ testData: template.templateTestJson ?? '{}', msgType: 'system' });
  }, [template, form]);

  const preview = template ? renderTemplate(template.templateContent, parseJsonObject(testData)) : '';

  const submit = async () => {
    if (!template) return;
    const values = await form.validateFields();
    try {
      const answer = await send.mutateAsync({ templateCode: template.templateCode, testData: values.testData || '{}', receiver: values.receiver, msgType: values.msgType });
      void message.success(answer || t('template.send'));
      onClose();
    } catch (error) {
      void message.error(error instanceof Error ? error.message : t('request.failed'));
    }
  };

  return (
    <Modal
      open={!!template}
      width={DIALOG_WIDTH}
      title={`${t('template.testSend')}: ${template?.templateName ?? ''}`}
      okText={t('template.send')}
      cancelText={t('common.cancel')}
      confirmLoading={send.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      forceRender
    >
      <Form form={form} name="template-test-send" layout="vertical">
        <Form.Item name="testData" label={t('template.testData')} rules={[jsonObjectRule(t('template.illegalJson'))]}>
          <Input.TextArea rows={4} />
        </Form.Item>
        <Form.Item label={t('template.preview')}>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }} type="secondary">
            {preview}
          </Typography.Paragraph>
        </Form.Item>
        <Form.Item name="msgType" label={t('template.msgType')} rules={[{ required: true }]}>
          <Select placeholder={t('crud.select')} options={SEND_TYPES.map((v) => ({ value: v, label: t(`message.sendType.${v}`) }))} />
        </Form.Item>
        <Form.Item name="receiver" label={t('template.receiver')} rules={[{ required: true }]}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** message/template: message templates with ${name} placeholders and a test-send. */
export default function TemplatePage() {
  const { t } = useTranslation();
  const [testing, setTesting] = useState<SysMessageTemplate | null>(null);
  const canTest = usePermission(MessagePerm.templateTestSend);
  const types = TEMPLATE_TYPES.map((v) => ({ value: v, label: t(`template.type.${v}`) }));
  const columns: ColumnsType<SysMessageTemplate> = [
    { title: t('template.field.templateCode'), dataIndex: 'templateCode', width: 180 },
    { title: t('template.field.templateName'), dataIndex: 'templateName', width: 200, ellipsis: true },
    { title: t('template.field.templateContent'), dataIndex: 'templateContent', ellipsis: true },
    { title: t('template.field.templateType'), dataIndex: 'templateType', width: 100, render: (v: string) => t(`template.type.${v === '2' ? '2' : '1'}`) },
  ];
  return (
    <>
      <ResourceScreen<SysMessageTemplate>
        resource={templates}
        title={translateTitle('menu.message.template')}
        entityLabel={t('template.entity')}
        nameOf={(row) => row.templateName}
        columns={columns}
        defaults={defaults}
        perms={{ add: MessagePerm.templateAdd, edit: MessagePerm.templateEdit, delete: MessagePerm.templateDelete }}
        actionsWidth={220}
        rowActions={(row) =>
          canTest && (
            <Button type="link" size="small" onClick={() => setTesting(row)}>
              {t('template.testSend')}
            </Button>
          )
        }
        filters={[
          { name: 'templateCode', label: t('template.field.templateCode'), control: <Input allowClear /> },
          { name: 'templateName', label: t('template.field.templateName'), control: <Input allowClear /> },
        ]}
        formItems={
          <>
            <Form.Item name="templateCode" label={t('template.field.templateCode')} rules={[{ required: true, pattern: /^[A-Za-z0-9_.-]+$/ }]}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item name="templateName" label={t('template.field.templateName')} rules={[{ required: true }]}>
              <Input maxLength={200} />
            </Form.Item>
            <Form.Item name="templateType" label={t('template.field.templateType')} rules={[{ required: true }]}>
              <Select placeholder={t('crud.select')} options={types} />
            </Form.Item>
            <Form.Item name="templateContent" label={t('template.field.templateContent')} rules={[{ required: true }]}>
              <Input.TextArea rows={5} />
            </Form.Item>
            <Form.Item name="templateTestJson" label={t('template.field.templateTestJson')} rules={[jsonObjectRule(t('template.illegalJson'))]}>
              <Input.TextArea rows={3} />
            </Form.Item>
          </>
        }
      />
      <TestSendModal template={testing} onClose={() => setTesting(null)} />
    </>
  );
}
