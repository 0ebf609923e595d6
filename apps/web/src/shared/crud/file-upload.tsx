import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { UploadKinds, staticFileUrl, uploadAccept } from '@isps/contract';
import { App, Button, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE, uploadFile } from '../api/index.ts';

/** The name a stored file was uploaded with: its path's last segment without the random prefix. */
export function storedFileName(path: string): string {
  const last = path.split('/').pop() ?? path;
  return /^[0-9a-f]{32}_/.test(last) ? last.slice(33) : last;
}

/** A `file` widget: the stored path as the value, the file's name as a download link, an upload button and a remove button. */
export function FileUpload({ id, value, onChange, disabled, maxBytes }: { id?: string; value?: unknown; onChange?: (value: unknown) => void; disabled?: boolean; maxBytes: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const path = typeof value === 'string' && value !== '' ? value : null;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > maxBytes) {
      void message.warning(t('crud.fileTooLarge', { size: Math.floor(maxBytes / 1024 / 1024) }));
      return;
    }
    setBusy(true);
    try {
      const uploaded = await uploadFile(file, { biz: 'device', extensions: UploadKinds.document });
      onChange?.(uploaded.path);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <>
      {/* the form's style shows file inputs (display: block) in spite of `hidden`: only an inline style hides it; outside
          the Space, whose item around it would still take a gap before the button */}
      <input id={id} ref={input} type="file" accept={uploadAccept('document')} hidden style={{ display: 'none' }} onChange={(e) => void pick(e.target.files?.[0])} />
      <Space align="center" wrap>
        {path ? (
          <Typography.Link href={staticFileUrl(API_BASE, path)} target="_blank" rel="noreferrer">
            <PaperClipOutlined /> {storedFileName(path)}
          </Typography.Link>
        ) : null}
        <Button icon={<UploadOutlined />} loading={busy} disabled={disabled} onClick={() => input.current?.click()}>
          {t('crud.fileUpload')}
        </Button>
        {path && !disabled ? <Button icon={<DeleteOutlined />} aria-label={t('crud.fileRemove')} onClick={() => onChange?.('')} /> : null}
      </Space>
    </>
  );
}
