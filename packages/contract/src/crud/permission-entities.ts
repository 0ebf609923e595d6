import * as z from 'zod';
import { ID_PATTERN } from '../ids.ts';
import type { EntityDeclaration, FieldDeclaration } from './declaration.ts';
import { field, textSchema } from './fields.ts';

/** SPEC section 2: a menu item is a level-one menu, a submenu or a button. */
export const MenuType = { levelOne: 0, submenu: 1, button: 2 } as const;

const MENU_TYPE_OPTIONS = [
  { value: '0', label: 'permission.type.levelOne' },
  { value: '1', label: 'permission.type.submenu' },
  { value: '2', label: 'permission.type.button' },
] as const;

/** The authorization policy of a button (`perms_type`): '1' shown or usable once granted, '2' shown to all, disabled until granted. */
const PERMS_TYPE_OPTIONS = [
  { value: '1', label: 'permission.permsType.granted' },
  { value: '2', label: 'permission.permsType.disabled' },
] as const;

const flag = (label: string, defaultValue: number): FieldDeclaration => field.integer(label, 0, 1, { widget: { kind: 'switch' }, defaultValue });

/** Menus and button permissions: the tree the console's navigation and every permission check come from. */
export const permissionEntity: EntityDeclaration = {
  name: 'permission',
  title: 'permission.title',
  basePath: '/sys/permission',
  permissionPrefix: 'system:permission',
  component: 'system/permission',
  labelField: 'name',
  fields: {
    menuType: {
      label: 'permission.field.menuType',
      kind: 'integer',
      schema: z.number().int().min(0).max(2),
      widget: { kind: 'options', options: MENU_TYPE_OPTIONS },
      required: true,
      defaultValue: MenuType.levelOne,
    },
    name: field.text('permission.field.name', 255, { required: true, translated: true }),
    parentId: { label: 'permission.field.parentId', kind: 'string', schema: textSchema(64), widget: { kind: 'treeSelect' } },
    url: field.text('permission.field.url', 255),
    component: field.text('permission.field.component', 255),
    componentName: field.text('permission.field.componentName', 100),
    redirect: field.text('permission.field.redirect', 255),
    perms: field.code('permission.field.perms', 255),
    permsType: {
      label: 'permission.field.permsType',
      kind: 'string',
      schema: z.enum(['1', '2'], { error: 'validation.invalid' }),
      widget: { kind: 'options', options: PERMS_TYPE_OPTIONS },
      required: true,
      defaultValue: '1',
    },
    icon: { label: 'permission.field.icon', kind: 'string', schema: textSchema(100), widget: { kind: 'icon' } },
    sortNo: field.integer('permission.field.sortNo', 1, 99_999, { required: true, defaultValue: 1 }),
    isRoute: flag('permission.field.isRoute', 1),
    keepAlive: flag('permission.field.keepAlive', 0),
    hidden: flag('permission.field.hidden', 0),
    alwaysShow: flag('permission.field.alwaysShow', 0),
    internalOrExternal: flag('permission.field.internalOrExternal', 0),
    status: field.dict('permission.field.status', 'valid_status', { required: true, defaultValue: '1' }),
  },
  columns: ['name', 'menuType', 'icon', 'url', 'component', 'perms', 'sortNo', 'hidden'],
  detailFields: ['componentName', 'redirect', 'permsType', 'isRoute', 'keepAlive', 'alwaysShow', 'internalOrExternal', 'status'],
  search: { name: 'contains', url: 'contains', perms: 'contains', menuType: 'exact' },
  sortable: ['sortNo', 'name'],
  defaultSort: { field: 'sortNo', order: 'asc' },
  softDelete: { recycleBin: false },
  // queryTreeList of this path is the role screen's tree of every permission
  tree: { parentField: 'parentId', labelField: 'name', path: '/sys/permission/menuTree' },
  extraActions: ['dataRule'],
};

/** Data rule conditions (DESIGN section 5 names the same operators for the super query). */
export const DATA_RULE_CONDITIONS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'in', 'like'] as const;
export type DataRuleCondition = (typeof DATA_RULE_CONDITIONS)[number];

/** Values a rule may name instead of a constant: the signed-in user's name, current group code or tenant. */
export const DATA_RULE_VARIABLES = ['#{sys_user_code}', '#{sys_org_code}', '#{sys_tenant_id}'] as const;

/**
 * Data rules of a menu (SPEC section 2): a role granted a rule sees only the rows of that menu's list that match
 * it (`ruleColumn ruleConditions ruleValue`), e.g. `createBy eq #{sys_user_code}`. Several granted rules of one
 * menu must all hold.
 */
export const dataRuleEntity: EntityDeclaration = {
  name: 'dataRule',
  title: 'dataRule.title',
  basePath: '/sys/permission/dataRule',
  permissionPrefix: 'system:dataRule',
  component: 'system/dataRule',
  labelField: 'ruleName',
  fields: {
    permissionId: { label: 'dataRule.field.permissionId', kind: 'string', schema: textSchema(64), widget: { kind: 'input' }, required: true, references: { entity: 'permission' } },
    ruleName: field.text('dataRule.field.ruleName', 100, { required: true }),
    ruleColumn: field.code('dataRule.field.ruleColumn', 100, { required: true }),
    ruleConditions: {
      label: 'dataRule.field.ruleConditions',
      kind: 'string',
      schema: z.enum(DATA_RULE_CONDITIONS, { error: 'validation.invalid' }),
      widget: { kind: 'options', options: DATA_RULE_CONDITIONS.map((c) => ({ value: c, label: `dataRule.condition.${c}` })) },
      required: true,
      defaultValue: 'eq',
    },
    ruleValue: field.text('dataRule.field.ruleValue', 300, { required: true, widget: { kind: 'input' } }),
    status: field.dict('dataRule.field.status', 'valid_status', { required: true, defaultValue: '1' }),
  },
  columns: ['ruleName', 'ruleColumn', 'ruleConditions', 'ruleValue', 'status'],
  search: { permissionId: 'exact', ruleName: 'contains' },
  sortable: ['ruleName', 'createTime'],
  defaultSort: { field: 'createTime', order: 'asc' },
  actions: ['list', 'add', 'edit', 'delete'],
};

/** Calls of data rules beyond the generic ones. */
export const DataRulePath = {
  /** GET ?roleId=&permissionId= : the rule ids the role holds on that menu */
  queryRoleDataRule: '/sys/role/datarule',
  /** POST `{ roleId, permissionId, dataRuleIds: 'a,b' }`: replaces them */
  saveRoleDataRule: '/sys/role/datarule',
} as const;

/** A data rule as offered for choosing (a role's, a group's or a group role's rules on one menu). */
export interface DataRuleChoice {
  id: string;
  ruleName: string;
  ruleColumn: string;
  ruleConditions: string;
  ruleValue: string;
  status: string;
}

/** The rules one may choose from on a menu, and the ids of the ones held. */
export interface DataRuleChoices {
  rules: DataRuleChoice[];
  granted: string[];
}

export const saveRoleDataRuleBody = z.object({
  roleId: z.string().regex(ID_PATTERN),
  permissionId: z.string().regex(ID_PATTERN),
  dataRuleIds: z.string().max(33_000),
});
