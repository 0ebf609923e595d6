import { UploadOutlined } from '@ant-design/icons';
import { SoftUpdatePerm } from '@isps/contract';
import { App, Button, Form, Input, Modal, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudExtensionProps } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { useUploadSoftUpdate } from '../api/upload-soft-update.ts';

/** What the file picker offers; the server checks the content whatever the name says. */
export const PACKAGE_ACCEPT = '.apk,.tar,.tar.gz,.tgz';

interface UploadValues {
  version: string;
  deviceModel?: string;
  updateLog?: string;
}

/** The upload form: the package, its version, device model and update log; a refusal is shown under the file. */
function UploadPackageModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<UploadValues>();
  const upload = useUploadSoftUpdate();
  // the picked package, kept beside the form: it is sent as it is, never uploaded on its own
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const fileMissing = () => setFileError(file ? null : t('softUpdate.fileRequired'));

  const submit = async (values: UploadValues) => {
    if (!file) return fileMissing();
    try {
      const envelope = await upload.mutateAsync({ version: values.version.trim(), deviceModel: values.deviceModel?.trim(), updateLog: values.updateLog?.trim(), file });
      if (!envelope.success) return setFileError(envelope.message);
      void message.success(envelope.message);
      onClose();
    } catch {
      // the request layer has shown why
    }
  };

  return (
    <Modal
      open
      title={t('softUpdate.uploadTitle')}
      okText={t('softUpdate.upload')}
      cancelText={t('common.cancel')}
      confirmLoading={upload.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<UploadValues> form={form} layout="vertical" name="soft-update-upload" onFinish={(values) => void submit(values)} onFinishFailed={fileMissing}>
        <Form.Item label={t('softUpdate.field.apkFile')} required extra={t('softUpdate.fileHelp')} validateStatus={fileError ? 'error' : undefined} help={fileError ?? undefined}>
          <Upload
            accept={PACKAGE_ACCEPT}
            maxCount={1}
            fileList={file ? [{ uid: 'package', name: file.name, status: 'done' }] : []}
            beforeUpload={(picked) => {
              setFile(picked);
              setFileError(null);
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <Button icon={<UploadOutlined />}>{t('softUpdate.pickFile')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item name="version" label={t('softUpdate.field.version')} rules={[{ required: true, whitespace: true, message: t('validation.required', { field: t('softUpdate.field.version') }) }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="deviceModel" label={t('softUpdate.field.deviceModel')} extra={t('softUpdate.modelHelp')}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="updateLog" label={t('softUpdate.field.updateLog')}>
          <Input.TextArea maxLength={2000} rows={4} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The soft update list's toolbar: uploading a package adds a row (device:softUpdate:add). */
export function UploadPackageButton(_props: CrudExtensionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Authorized code={SoftUpdatePerm.add}>
      <Button type="primary" icon={<UploadOutlined />} onClick={() => setOpen(true)}>
        {t('softUpdate.upload')}
      </Button>
      {open ? <UploadPackageModal onClose={() => setOpen(false)} /> : null}
    </Authorized>
  );
}
