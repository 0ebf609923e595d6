import * as z from 'zod';
import type { EntityDeclaration } from './declaration.ts';
import { field } from './fields.ts';

/** sys_log.log_type: the login log and the operation log. */
export const LogType = { login: 1, operation: 2 } as const;

/** sys_log.operate_type: what was done (the origin console's numbers 1-6, then signing in and out). */
export const LogOperateType = { query: 1, add: 2, edit: 3, delete: 4, import: 5, export: 6, login: 7, logout: 8 } as const;

const options = <T extends Record<string, number>>(values: T, prefix: string) =>
  Object.entries(values).map(([name, value]) => ({ value: String(value), label: `${prefix}.${name}` }));

/** The login and operation logs (SPEC sections 2 and 9: cost time in milliseconds); read-only, exportable. */
export const logEntity: EntityDeclaration = {
  name: 'log',
  title: 'log.title',
  basePath: '/sys/log',
  permissionPrefix: 'system:log',
  component: 'system/log',
  labelField: 'content',
  fields: {
    logType: { label: 'log.field.logType', kind: 'integer', schema: z.number().int(), widget: { kind: 'options', options: options(LogType, 'log.type') }, readOnly: true },
    operateType: { label: 'log.field.operateType', kind: 'integer', schema: z.number().int(), widget: { kind: 'options', options: options(LogOperateType, 'log.operate') }, readOnly: true },
    content: field.text('log.field.content', 1000, { readOnly: true }),
    username: field.text('log.field.username', 100, { readOnly: true }),
    ip: field.text('log.field.ip', 64, { readOnly: true }),
    costTime: field.integer('log.field.costTime', 0, 2_147_483_647, { readOnly: true }),
  },
  columns: ['operateType', 'content', 'username', 'ip', 'costTime', 'createTime'],
  search: { logType: 'exact', operateType: 'exact', content: 'contains', username: 'contains', ip: 'contains', createTime: 'range' },
  sortable: ['operateType', 'username', 'costTime', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  actions: ['list', 'export'],
  // each entry carries the acting user's tenant; entries of users without one are read by system administrators only
  tenantScoped: true,
};

/** Versions of rows written through the console (SPEC section 2: data log and compare). */
export const dataLogEntity: EntityDeclaration = {
  name: 'dataLog',
  title: 'dataLog.title',
  basePath: '/sys/dataLog',
  permissionPrefix: 'system:dataLog',
  component: 'system/dataLog',
  labelField: 'dataId',
  fields: {
    dataTable: field.text('dataLog.field.dataTable', 64),
    dataId: field.text('dataLog.field.dataId', 36),
    dataVersion: field.integer('dataLog.field.dataVersion', 1, 1_000_000_000),
    dataContent: field.text('dataLog.field.dataContent', 100_000, { widget: { kind: 'textarea' } }),
  },
  columns: ['dataTable', 'dataId', 'dataVersion', 'createBy', 'createTime'],
  detailFields: ['dataContent'],
  search: { dataTable: 'exact', dataId: 'exact', createBy: 'contains', createTime: 'range' },
  sortable: ['dataTable', 'dataVersion', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  actions: ['list', 'export'],
  extraActions: ['compare'],
  // each version carries the tenant of the row it copies (of the acting user for rows of global tables)
  tenantScoped: true,
};

/** GET ?dataId1=&dataId2= (two data log ids): both versions with their contents parsed. */
export const DataLogPath = { compare: '/sys/dataLog/queryCompareList' } as const;

export interface DataLogVersion {
  id: string;
  dataTable: string;
  /** the declared screen whose rows the version copies (its name), when there is one: the comparison shows its fields */
  entity?: string;
  dataId: string;
  dataVersion: number;
  createBy: string | null;
  createTime: string | null;
  content: Record<string, unknown>;
}
