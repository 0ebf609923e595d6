import { TENANT_DICT } from '../http.ts';
import { idSchema } from '../ids.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, integerSchema } from './fields.ts';

/**
 * The stored files (SPEC section 2 'message: file storage'; the origin's /sys/oss/file list with its fileName and url):
 * every upload with its name, type, size, uploader, tenant and time, listed, exported and deleted (the stored file
 * with it). A system administrator sees every tenant's, with the tenant column.
 */
export const fileStorageEntity: EntityDeclaration = {
  name: 'fileStorage',
  title: 'fileStorage.title',
  basePath: '/sys/oss/file',
  permissionPrefix: 'message:fileStorage',
  component: 'message/fileStorage',
  labelField: 'fileName',
  fields: {
    fileName: field.text('fileStorage.field.fileName', 255, { readOnly: true }),
    url: { ...field.text('fileStorage.field.url', 255, { readOnly: true }), column: 'file_path' },
    fileType: field.text('fileStorage.field.fileType', 16, { readOnly: true }),
    fileSize: { label: 'fileStorage.field.fileSize', kind: 'integer', schema: integerSchema(0, Number.MAX_SAFE_INTEGER), widget: { kind: 'number' }, readOnly: true },
    tenantId: field.dict('fileStorage.field.tenantId', TENANT_DICT, { schema: idSchema, readOnly: true, systemAdminOnly: true }),
  },
  columns: ['fileName', 'fileType', 'fileSize', 'createBy', 'tenantId', 'createTime'],
  phoneColumns: ['fileName', 'fileSize'],
  detailFields: ['url'],
  search: { fileName: 'contains', fileType: 'exact', createTime: 'range' },
  sortable: ['fileName', 'fileType', 'fileSize', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  tenantScoped: true,
  acrossTenantsForSystemAdmin: true,
  actions: ['list', 'delete', 'export'],
};

export const fileEntities: readonly EntityDeclaration[] = [fileStorageEntity];

export const fileLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'fileStorage.title': ['File storage', '文件存储', 'ファイルストレージ'],
  'fileStorage.field.fileName': ['File name', '文件名称', 'ファイル名'],
  'fileStorage.field.url': ['File address', '文件地址', 'ファイルのアドレス'],
  'fileStorage.field.fileType': ['Type', '类型', '種類'],
  'fileStorage.field.fileSize': ['Size (bytes)', '大小（字节）', 'サイズ（バイト）'],
  'fileStorage.field.tenantId': ['Tenant', '租户', 'テナント'],
  'fileStorage.download': ['Download', '下载', 'ダウンロード'],
};
