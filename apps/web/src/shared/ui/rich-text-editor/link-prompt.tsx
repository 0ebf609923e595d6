import { Button, Form, Input, Modal, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isSafeLinkUrl, normaliseLinkUrl } from './safe-link.ts';

/** Asks for a link address; script and data addresses are refused with a message, never applied. */
export function LinkPrompt({ open, initial, onSubmit, onRemove, onCancel }: { open: boolean; initial: string; onSubmit: (href: string) => void; onRemove: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ href: string }>();

  useEffect(() => {
    if (open) form.setFieldsValue({ href: initial });
  }, [open, initial, form]);

  const submit = async () => {
    try {
      const { href } = await form.validateFields();
      onSubmit(normaliseLinkUrl(href));
    } catch {
      // the form shows why the address was refused
    }
  };

  return (
    <Modal
      open={open}
      title={t('richText.linkTitle')}
      onCancel={onCancel}
      destroyOnHidden
      width={420}
      rootClassName="rich-text-link-prompt"
      footer={
        <Space>
          {initial && <Button onClick={onRemove}>{t('richText.linkRemove')}</Button>}
          <Button onClick={onCancel}>{t('common.cancel')}</Button>
          <Button type="primary" onClick={() => void submit()}>
            {t('common.ok')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onFinish={() => void submit()} preserve={false}>
        <Form.Item
          name="href"
          label={t('richText.linkUrl')}
          rules={[
            { required: true, whitespace: true, message: t('richText.linkRequired') },
            { validator: async (_, v: string | undefined) => (!v?.trim() || isSafeLinkUrl(normaliseLinkUrl(v)) ? undefined : Promise.reject(new Error(t('richText.linkUnsafe')))) },
          ]}
        >
          <Input autoFocus placeholder={t('richText.linkPlaceholder')} onPressEnter={() => void submit()} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
