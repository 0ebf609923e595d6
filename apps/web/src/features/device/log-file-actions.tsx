import { CloudUploadOutlined, DownloadOutlined } from '@ant-design/icons';
import { DeviceLogFilePerm, staticFileUrl } from '@isps/contract';
import { App, Button, Flex, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../shared/api/index.ts';
import { EntitySelect, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../shared/crud/index.ts';
import { Authorized } from '../../shared/permission/index.ts';
import { useRequestDeviceLog } from './api/request-device-log.ts';

/** A log file's download, through the stored files' download (a device stores its logs as .txt or .zip files). */
function LogFileDownload({ row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const path = typeof row.filePath === 'string' ? row.filePath : '';
  if (!path) return null;
  return (
    <Button type="link" size="small" icon={<DownloadOutlined />} data-command="download" href={staticFileUrl(API_BASE, path)} download={typeof row.fileName === 'string' ? row.fileName : true}>
      {t('deviceLogFile.download')}
    </Button>
  );
}

/** Asks a chosen device for its log file: it uploads it within minutes, and the list shows it on the next refresh. */
function RequestLogModal({ onClose, onAsked }: { onClose: () => void; onAsked: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ask = useRequestDeviceLog();
  const [deviceId, setDeviceId] = useState<string | undefined>();
  const submit = async () => {
    if (!deviceId) return;
    try {
      const envelope = await ask.mutateAsync(deviceId);
      if (!envelope.success) return void message.error(envelope.message);
      void message.success(envelope.message);
      onAsked();
    } catch {
      // the request layer has shown why
    }
  };
  return (
    <Modal
      open
      title={t('deviceLogFile.requestTitle')}
      okText={t('deviceLogFile.request')}
      cancelText={t('common.cancel')}
      confirmLoading={ask.isPending}
      okButtonProps={{ disabled: !deviceId }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('deviceLogFile.requestHint')}</Typography.Text>
        <Form layout="vertical">
          <Form.Item label={t('deviceLogFile.requestDevice')} htmlFor="request-log-device">
            <EntitySelect id="request-log-device" entityName="device" labelField="deviceName" value={deviceId} onChange={(value: unknown) => setDeviceId(typeof value === 'string' ? value : undefined)} />
          </Form.Item>
        </Form>
      </Flex>
    </Modal>
  );
}

function RequestLogButton({ refresh }: CrudExtensionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Authorized code={DeviceLogFilePerm.request}>
      <Button icon={<CloudUploadOutlined />} data-command="sendLog" onClick={() => setOpen(true)}>
        {t('deviceLogFile.request')}
      </Button>
      {open && (
        <RequestLogModal
          onClose={() => setOpen(false)}
          onAsked={() => {
            setOpen(false);
            // the upload follows within moments; a later refresh shows it as well
            setTimeout(refresh, 3000);
          }}
        />
      )}
    </Authorized>
  );
}

/** The log file list beside the generic screen: a download on each row, and asking a device for its log. */
export const logFileExtension: CrudExtension = { RowActions: LogFileDownload, Toolbar: RequestLogButton };
