import { UploadOutlined } from '@ant-design/icons';
import { ANNOUNCEMENT_UPLOAD_BIZ, UploadKinds, displayFileName, uploadAccept, type UploadKind } from '@isps/contract';
import { App, Button, Upload, type UploadFile } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { uploadFile, type UploadedFile } from '../../../shared/api/index.ts';

/** The addresses a stored value holds: one, or several separated by commas. */
function addressesOf(value: string | null | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

export interface AnnouncementFileUploadProps {
  /** one address, or comma-separated addresses when `multiple` */
  value?: string | null;
  onChange?: (value: string | null) => void;
  id?: string;
  kinds: UploadKind[];
  multiple?: boolean;
  buttonText: string;
}

/**
 * Announcement files as the form stores them (addresses of uploaded files), shown as antd's upload list: progress
 * while a file goes up, its name once stored, a remove button. A new file replaces the old one unless `multiple`.
 */
export function AnnouncementFileUpload({ value, onChange, id, kinds, multiple = false, buttonText }: AnnouncementFileUploadProps) {
  const { message } = App.useApp();
  // uploads can finish between renders: each adds to the newest value, not to the one its render saw
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);
  const [pending, setPending] = useState<UploadFile[]>([]);
  const addresses = addressesOf(value);
  const stored: UploadFile[] = addresses.map((url) => ({ uid: url, name: displayFileName(url), status: 'done', url, thumbUrl: url }));
  const extensions = kinds.flatMap((kind) => [...UploadKinds[kind]]);

  const emit = (next: string[]) => {
    latest.current = next.length ? next.join(',') : null;
    onChange?.(latest.current);
  };

  return (
    <Upload
      id={id}
      accept={uploadAccept(...kinds)}
      multiple={multiple}
      listType={kinds.includes('image') && !multiple ? 'picture' : 'text'}
      fileList={[...stored, ...pending]}
      customRequest={({ file, onProgress, onSuccess, onError }) => {
        uploadFile(file as File, { biz: ANNOUNCEMENT_UPLOAD_BIZ, extensions, onProgress: (percent) => onProgress?.({ percent }) })
          .then((uploaded) => onSuccess?.(uploaded))
          .catch((error: Error) => {
            void message.error(error.message);
            onError?.(error);
          });
      }}
      onChange={({ file }) => {
        if (file.status === 'done') {
          const url = (file.response as UploadedFile).url;
          setPending((list) => list.filter((f) => f.uid !== file.uid));
          emit(multiple ? [...addressesOf(latest.current), url] : [url]);
          return;
        }
        if (file.status === 'removed') {
          setPending((list) => list.filter((f) => f.uid !== file.uid));
          if (addresses.includes(file.uid)) emit(addressesOf(latest.current).filter((a) => a !== file.uid));
          return;
        }
        // uploading or failed: shown with its progress or in red until it is removed
        setPending((list) => [...list.filter((f) => f.uid !== file.uid), { ...file, response: file.error?.message ?? file.response }]);
      }}
    >
      <Button icon={<UploadOutlined />}>{buttonText}</Button>
    </Upload>
  );
}
