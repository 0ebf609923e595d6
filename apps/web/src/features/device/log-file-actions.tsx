import { DownloadOutlined } from '@ant-design/icons';
import { staticFileUrl } from '@isps/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../shared/api/index.ts';
import type { CrudExtension, CrudExtensionProps, CrudRow } from '../../shared/crud/index.ts';

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

/** The log file list beside the generic screen: a download on each row. */
export const logFileExtension: CrudExtension = { RowActions: LogFileDownload };
