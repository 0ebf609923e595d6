import { DownloadOutlined } from '@ant-design/icons';
import { staticFileUrl, type EntityDeclaration } from '@isps/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../shared/api/index.ts';
import { CrudScreen, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../shared/crud/index.ts';

/** A stored file's download, by the path its upload answered. */
function FileDownload({ row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const path = typeof row.url === 'string' ? row.url : '';
  if (!path) return null;
  return (
    <Button type="link" size="small" icon={<DownloadOutlined />} data-command="download" href={staticFileUrl(API_BASE, path)} download={typeof row.fileName === 'string' && row.fileName !== '' ? row.fileName : true}>
      {t('fileStorage.download')}
    </Button>
  );
}

const extensions: Record<string, CrudExtension> = { fileStorage: { RowActions: FileDownload } };

/** The message area's declared screens (the file storage list): the generic screen with a download on each row. */
export function MessageEntityScreen({ entity }: { entity: EntityDeclaration }) {
  return <CrudScreen key={entity.name} entity={entity} extension={extensions[entity.name]} />;
}
