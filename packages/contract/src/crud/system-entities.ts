import * as z from 'zod';
import { checkRuleSetSchema } from './check-rule.ts';
import type { EntityDeclaration } from './declaration.ts';
import { codeSchema, field, jsonObjectTextSchema } from './fields.ts';
import { dataLogEntity, logEntity } from './log-entities.ts';
import { departRoleEntity, roleEntity } from './role-entities.ts';
import { departEntity, userAgentEntity, userEntity } from './user-entities.ts';
import { dataRuleEntity, permissionEntity } from './permission-entities.ts';
import { jobLogEntity, quartzJobEntity } from './job-entities.ts';
import { ApiPath } from '../paths.ts';
import { SelfRegister } from '../account.ts';
import { integerSchema } from './fields.ts';

/** Code generators a fill rule can use; the server holds one implementation per value. */
export const FILL_RULE_IMPLEMENTATIONS = [
  { value: 'datedSerial', label: 'fillRule.impl.datedSerial' },
  { value: 'randomCode', label: 'fillRule.impl.randomCode' },
  { value: 'prefixedTime', label: 'fillRule.impl.prefixedTime' },
] as const;

/** Database types a data source may name; PostgreSQL and MariaDB/MySQL can be tested from the console. */
export const DATA_SOURCE_TYPES = ['postgresql', 'mysql', 'mariadb'] as const;

const audit = ['createBy', 'createTime'] as const;

export const positionEntity: EntityDeclaration = {
  name: 'position',
  title: 'position.title',
  basePath: '/sys/position',
  permissionPrefix: 'system:position',
  component: 'system/position',
  labelField: 'name',
  fields: {
    code: field.code('position.field.code', 64, { required: true }),
    name: field.text('position.field.name', 100, { required: true }),
    postRank: field.dict('position.field.postRank', 'post_rank', { required: true }),
  },
  columns: ['code', 'name', 'postRank', 'createTime'],
  search: { code: 'contains', name: 'contains', postRank: 'exact', createTime: 'range' },
  sortable: ['code', 'name', 'postRank', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'code', message: 'duplicate.positionCode' }],
  tenantScoped: true,
};

export const vendorEntity: EntityDeclaration = {
  name: 'vendor',
  title: 'vendor.title',
  basePath: '/sys/vendor',
  permissionPrefix: 'system:vendor',
  component: 'system/vendor',
  labelField: 'tradeName',
  fields: {
    tradeName: field.text('vendor.field.tradeName', 100, { required: true }),
    gatherOffset: field.integer('vendor.field.gatherOffset', -86_400, 86_400, { defaultValue: 0 }),
  },
  columns: ['tradeName', 'gatherOffset', 'createTime'],
  search: { tradeName: 'contains', gatherOffset: 'range' },
  sortable: ['tradeName', 'gatherOffset', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  tenantScoped: true,
};

export const categoryEntity: EntityDeclaration = {
  name: 'category',
  title: 'category.title',
  basePath: '/sys/category',
  permissionPrefix: 'system:category',
  component: 'system/category',
  labelField: 'name',
  fields: {
    pid: { label: 'category.field.pid', kind: 'string', schema: z.string().max(36), widget: { kind: 'treeSelect' } },
    name: field.text('category.field.name', 100, { required: true }),
    code: field.code('category.field.code', 64, { required: true }),
  },
  columns: ['name', 'code', 'createTime'],
  search: { name: 'contains', code: 'contains', pid: 'exact' },
  sortable: ['name', 'code', 'createTime'],
  defaultSort: { field: 'code', order: 'asc' },
  unique: [{ field: 'code', message: 'duplicate.categoryCode' }],
  tenantScoped: true,
  tree: { parentField: 'pid', labelField: 'name' },
};

/** The tenant's choice of self-registration, as the tenant form offers it. */
export const SELF_REGISTER_OPTIONS = [
  { value: String(SelfRegister.off), label: 'tenant.selfRegister.off' },
  { value: String(SelfRegister.open), label: 'tenant.selfRegister.open' },
  { value: String(SelfRegister.approval), label: 'tenant.selfRegister.approval' },
] as const;

export const tenantEntity: EntityDeclaration = {
  name: 'tenant',
  title: 'tenant.title',
  basePath: '/sys/tenant',
  permissionPrefix: 'system:tenant',
  component: 'system/tenant',
  labelField: 'name',
  fields: {
    name: field.text('tenant.field.name', 100, { required: true }),
    code: field.code('tenant.field.code', 64, { required: true }),
    beginDate: field.datetime('tenant.field.beginDate'),
    endDate: field.datetime('tenant.field.endDate'),
    status: field.dictInteger('tenant.field.status', 'tenant_status', { required: true, defaultValue: 1 }),
    // who may open an account on the login page (off by default): a stranger never gets in unasked
    selfRegister: {
      label: 'tenant.field.selfRegister',
      kind: 'integer',
      schema: integerSchema(SelfRegister.off, SelfRegister.approval),
      widget: { kind: 'options', options: SELF_REGISTER_OPTIONS },
      required: true,
      defaultValue: SelfRegister.off,
    },
  },
  columns: ['name', 'code', 'beginDate', 'endDate', 'status', 'selfRegister'],
  search: { name: 'contains', code: 'contains', status: 'exact', beginDate: 'range' },
  sortable: ['name', 'code', 'beginDate', 'endDate', 'status', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'code', message: 'duplicate.tenantCode' }],
};

export const dictEntity: EntityDeclaration = {
  name: 'dict',
  title: 'dict.title',
  basePath: '/sys/dict',
  permissionPrefix: 'system:dict',
  component: 'system/dict',
  labelField: 'dictName',
  fields: {
    dictName: field.text('dict.field.dictName', 100, { required: true }),
    dictCode: field.code('dict.field.dictCode', 100, { required: true }),
    description: field.text('dict.field.description', 255),
  },
  columns: ['dictName', 'dictCode', 'description', 'createTime'],
  search: { dictName: 'contains', dictCode: 'contains' },
  sortable: ['dictName', 'dictCode', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'dictCode', message: 'duplicate.dictCode' }],
  softDelete: { recycleBin: true },
  extraActions: ['refreshCache'],
};

export const dictItemEntity: EntityDeclaration = {
  name: 'dictItem',
  title: 'dictItem.title',
  basePath: '/sys/dictItem',
  permissionPrefix: 'system:dictItem',
  component: 'system/dictItem',
  labelField: 'itemText',
  fields: {
    dictId: { label: 'dictItem.field.dictId', kind: 'string', schema: z.string().min(1).max(36), widget: { kind: 'entitySelect', entity: 'dict', labelField: 'dictName' }, required: true, references: { entity: 'dict' } },
    itemText: field.text('dictItem.field.itemText', 100, { required: true }),
    itemValue: field.text('dictItem.field.itemValue', 100, { required: true }),
    description: field.text('dictItem.field.description', 255),
    sortOrder: field.integer('dictItem.field.sortOrder', 0, 99_999, { defaultValue: 1 }),
    status: field.dictInteger('dictItem.field.status', 'valid_status', { defaultValue: 1 }),
  },
  // the dictionary each item belongs to: the menu's list holds the items of every dictionary
  columns: ['dictId', 'itemText', 'itemValue', 'description', 'sortOrder', 'status'],
  search: { dictId: 'exact', itemText: 'contains', itemValue: 'contains', status: 'exact' },
  sortable: ['itemText', 'itemValue', 'sortOrder', 'status', 'createTime'],
  defaultSort: { field: 'sortOrder', order: 'asc' },
  unique: [{ field: 'itemValue', within: ['dictId'], message: 'duplicate.dictItemValue' }],
};

/** ruleJson: the JSON text of a CheckRuleSet with at least one rule. */
const checkRuleJsonSchema = jsonObjectTextSchema.superRefine((value, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return;
  }
  const rules = checkRuleSetSchema.safeParse(parsed);
  if (!rules.success) {
    for (const issue of rules.error.issues.slice(0, 3)) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as PropertyKey[] });
    return;
  }
  if (rules.data.localRules.length + rules.data.globalRules.length === 0) ctx.addIssue({ code: 'custom', message: 'validation.checkRuleEmpty' });
});

export const checkRuleEntity: EntityDeclaration = {
  name: 'checkRule',
  title: 'checkRule.title',
  basePath: '/sys/checkRule',
  permissionPrefix: 'system:checkRule',
  component: 'system/checkRule',
  labelField: 'ruleName',
  fields: {
    ruleName: field.text('checkRule.field.ruleName', 100, { required: true }),
    ruleCode: field.code('checkRule.field.ruleCode', 100, { required: true }),
    ruleJson: { label: 'checkRule.field.ruleJson', kind: 'json', schema: checkRuleJsonSchema, widget: { kind: 'checkRules' }, required: true },
    ruleDescription: field.text('checkRule.field.ruleDescription', 255),
  },
  columns: ['ruleName', 'ruleCode', 'ruleDescription', ...audit],
  detailFields: ['ruleJson'],
  search: { ruleName: 'contains', ruleCode: 'contains' },
  sortable: ['ruleName', 'ruleCode', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'ruleCode', message: 'duplicate.ruleCode' }],
};

export const fillRuleEntity: EntityDeclaration = {
  name: 'fillRule',
  title: 'fillRule.title',
  basePath: '/sys/fillRule',
  permissionPrefix: 'system:fillRule',
  component: 'system/fillRule',
  labelField: 'ruleName',
  fields: {
    ruleName: field.text('fillRule.field.ruleName', 100, { required: true }),
    ruleCode: field.code('fillRule.field.ruleCode', 100, { required: true }),
    ruleClass: {
      label: 'fillRule.field.ruleClass',
      kind: 'string',
      schema: z.enum(FILL_RULE_IMPLEMENTATIONS.map((i) => i.value) as [string, ...string[]], { error: 'validation.invalid' }),
      widget: { kind: 'options', options: FILL_RULE_IMPLEMENTATIONS },
      required: true,
    },
    ruleParams: field.jsonObject('fillRule.field.ruleParams'),
  },
  columns: ['ruleName', 'ruleCode', 'ruleClass', 'ruleParams', ...audit],
  search: { ruleName: 'contains', ruleCode: 'contains', ruleClass: 'exact' },
  sortable: ['ruleName', 'ruleCode', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'ruleCode', message: 'duplicate.ruleCode' }],
};

export const dataSourceEntity: EntityDeclaration = {
  name: 'dataSource',
  title: 'dataSource.title',
  basePath: '/sys/dataSource',
  permissionPrefix: 'system:dataSource',
  component: 'system/dataSource',
  labelField: 'name',
  fields: {
    name: field.text('dataSource.field.name', 100, { required: true }),
    code: {
      label: 'dataSource.field.code',
      kind: 'string',
      schema: codeSchema(100).regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { error: 'validation.dataSourceCode' }),
      widget: { kind: 'input' },
      required: true,
    },
    dbType: field.dict('dataSource.field.dbType', 'database_type', { required: true, schema: z.enum(DATA_SOURCE_TYPES, { error: 'validation.invalid' }), optionsFrom: ApiPath.dataSourceKinds }),
    // the driver follows the database kind: the server names it, nobody types a driver
    dbDriver: field.text('dataSource.field.dbDriver', 100, { readOnly: true }),
    dbUrl: field.text('dataSource.field.dbUrl', 500, { required: true, widget: { kind: 'input' } }),
    dbName: field.text('dataSource.field.dbName', 100),
    dbUsername: field.text('dataSource.field.dbUsername', 100, { required: true }),
    dbPassword: field.password('dataSource.field.dbPassword', 200),
    remark: field.text('dataSource.field.remark', 500),
  },
  columns: ['name', 'code', 'dbType', 'dbUrl', 'dbName', 'dbUsername', 'createTime'],
  detailFields: ['dbDriver', 'remark'],
  search: { name: 'contains', code: 'contains', dbType: 'exact' },
  sortable: ['name', 'code', 'dbType', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'code', message: 'duplicate.dataSourceCode' }],
  extraActions: ['test'],
};

/** A read-only directory of the users (name, job number, phone, email, group). */
export const addressBookEntity: EntityDeclaration = {
  name: 'addressBook',
  title: 'addressBook.title',
  basePath: '/sys/addressBook',
  permissionPrefix: 'system:addressBook',
  component: 'system/addressBook',
  labelField: 'realname',
  fields: {
    realname: field.text('addressBook.field.realname', 100),
    username: field.text('addressBook.field.username', 100),
    workNo: field.text('addressBook.field.workNo', 100),
    phone: field.text('addressBook.field.phone', 45),
    email: field.text('addressBook.field.email', 100),
    // the code of the group a person works in: for data rules (#{sys_org_code}) and the detail view
    orgCode: field.text('addressBook.field.orgCode', 64),
    // the groups by name, picked from the group tree (an org code means nothing to a person looking someone up)
    departs: field.links('addressBook.field.departs', { entity: 'depart' }, 'departName', {
      widget: { kind: 'treeSelect', entity: 'depart', multiple: true },
    }),
  },
  columns: ['realname', 'username', 'workNo', 'phone', 'email', 'departs'],
  detailFields: ['orgCode'],
  search: { realname: 'contains', workNo: 'contains', phone: 'contains', email: 'contains', departs: 'exact' },
  sortable: ['realname', 'username', 'workNo'],
  defaultSort: { field: 'realname', order: 'asc' },
  tenantScoped: true,
  softDelete: { recycleBin: false },
  actions: ['list', 'export'],
};

/** Every declared system screen, in menu order. */
export const systemEntities: readonly EntityDeclaration[] = [
  userEntity,
  userAgentEntity,
  roleEntity,
  permissionEntity,
  dataRuleEntity,
  departEntity,
  departRoleEntity,
  positionEntity,
  vendorEntity,
  categoryEntity,
  tenantEntity,
  dictEntity,
  dictItemEntity,
  checkRuleEntity,
  fillRuleEntity,
  dataSourceEntity,
  addressBookEntity,
  logEntity,
  quartzJobEntity,
  jobLogEntity,
  dataLogEntity,
];
