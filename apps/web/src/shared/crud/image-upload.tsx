import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { UploadKinds, staticFileUrl, uploadAccept } from '@isps/contract';
import { App, Button, Image, Space } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE, uploadFile } from '../api/index.ts';

/** Whether a picked file may be sent: at most `maxBytes` (the server checks again). */
export function imageTooLarge(file: Pick<File, 'size'>, maxBytes: number): boolean {
  return file.size >= maxBytes;
}

/** An `image` widget: the stored path as the value, a preview, an upload button and a remove button. */
export function ImageUpload({ id, value, onChange, disabled, maxBytes }: { id?: string; value?: unknown; onChange?: (value: unknown) => void; disabled?: boolean; maxBytes: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const path = typeof value === 'string' && value !== '' ? value : null;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (imageTooLarge(file, maxBytes)) {
      void message.warning(t('crud.imageTooLarge', { size: Math.floor(maxBytes / 1024) }));
      return;
    }
    setBusy(true);
    try {
      const uploaded = await uploadFile(file, { biz: 'device', extensions: UploadKinds.image });
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
      <input id={id} ref={input} type="file" accept={uploadAccept('image')} hidden style={{ display: 'none' }} onChange={(e) => void pick(e.target.files?.[0])} />
      <Space align="start" wrap>
        {path ? <Image src={staticFileUrl(API_BASE, path)} width={96} height={64} style={{ objectFit: 'cover' }} alt="" /> : null}
        <Button icon={<UploadOutlined />} loading={busy} disabled={disabled} onClick={() => input.current?.click()}>
          {t('crud.imageUpload')}
        </Button>
        {path && !disabled ? <Button icon={<DeleteOutlined />} aria-label={t('crud.imageRemove')} onClick={() => onChange?.('')} /> : null}
      </Space>
    </>
  );
}
