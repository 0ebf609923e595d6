import * as z from 'zod';
import { isStrongPassword } from '../auth.ts';
import { TENANT_DICT } from '../http.ts';
import { ID_PATTERN, idSchema } from '../ids.ts';
import { timeSettingTextSchema } from '../access/time-setting.ts';
import type { EntityDeclaration } from './declaration.ts';
import { emailSchema, faxSchema, field, phoneSchema, textSchema, timeSchema } from './fields.ts';

/**
 * SPEC section 4: a user is normal or frozen (frozen users cannot sign in; thawing lets them back). A self-registered
 * account of a tenant that approves registrations awaits approval (cannot sign in) until an administrator thaws it.
 */
export const UserStatus = { normal: 1, frozen: 2, awaitingApproval: 3 } as const;

/** SPEC section 5: at least 8 characters with upper and lower case letters, digits and special symbols. */
export const strongPasswordSchema = z.string().max(200).refine(isStrongPassword, { error: 'password.weak' });

const userName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\s,]+$/, { error: 'validation.userName' });

/** Groups (departments): a tree whose org codes the server generates (A01, A01A01, …) from the position in it. */
export const departEntity: EntityDeclaration = {
  name: 'depart',
  title: 'depart.title',
  basePath: '/sys/sysDepart',
  permissionPrefix: 'system:depart',
  component: 'system/depart',
  labelField: 'departName',
  fields: {
    departName: field.text('depart.field.departName', 100, { required: true }),
    parentId: { label: 'depart.field.parentId', kind: 'string', schema: textSchema(64), widget: { kind: 'treeSelect' } },
    orgCode: field.text('depart.field.orgCode', 64, { readOnly: true }),
    orgType: field.dict('depart.field.orgType', 'org_type', { readOnly: true }),
    departOrder: field.integer('depart.field.departOrder', 0, 9999, { required: true, defaultValue: 0 }),
    mobile: { label: 'depart.field.mobile', kind: 'string', schema: phoneSchema, widget: { kind: 'input' } },
    fax: { label: 'depart.field.fax', kind: 'string', schema: faxSchema, widget: { kind: 'input' } },
    address: field.text('depart.field.address', 255),
    tenantId: field.dict('depart.field.tenantId', TENANT_DICT, { schema: idSchema, systemAdminOnly: true }),
    memo: field.text('depart.field.memo', 500),
    // SPEC section 3 "Group": a patrol group walks patrol missions, within its time setting
    patrolGroup: field.integer('depart.field.patrolGroup', 0, 1, { widget: { kind: 'switch' }, defaultValue: 0 }),
    timeSetting: { label: 'depart.field.timeSetting', kind: 'json', schema: timeSettingTextSchema, widget: { kind: 'timeSetting' }, defaultValue: '{"mode":"permanent"}' },
  },
  columns: ['departName', 'orgCode', 'orgType', 'departOrder', 'mobile', 'address', 'createTime'],
  detailFields: ['fax', 'memo', 'tenantId', 'patrolGroup', 'timeSetting'],
  search: { departName: 'contains', orgCode: 'contains', mobile: 'contains' },
  sortable: ['departName', 'orgCode', 'departOrder', 'createTime'],
  defaultSort: { field: 'departOrder', order: 'asc' },
  tenantScoped: true,
  softDelete: { recycleBin: false },
  tree: { parentField: 'parentId', labelField: 'departName' },
  /** 'authorize': the permissions the group may hand out through its group roles */
  extraActions: ['authorize'],
};

/**
 * Users (SPEC sections 3 to 6): roles and groups are kept in link tables and sent as `selectedroles` /
 * `selecteddeparts` (ids joined by commas), the names the origin console's clients send.
 */
export const userEntity: EntityDeclaration = {
  name: 'user',
  title: 'user.title',
  basePath: '/sys/user',
  permissionPrefix: 'system:user',
  component: 'system/user',
  labelField: 'username',
  fields: {
    username: { label: 'user.field.username', kind: 'string', schema: userName, widget: { kind: 'input' }, required: true },
    realname: field.text('user.field.realname', 100, { required: true }),
    password: field.password('user.field.password', 200, { schema: strongPasswordSchema, required: true }),
    workNo: field.text('user.field.workNo', 100),
    sex: field.dictInteger('user.field.sex', 'sex'),
    birthday: { label: 'user.field.birthday', kind: 'date', schema: timeSchema, widget: { kind: 'date' } },
    phone: { label: 'user.field.phone', kind: 'string', schema: phoneSchema, widget: { kind: 'input' } },
    email: { label: 'user.field.email', kind: 'string', schema: emailSchema, widget: { kind: 'input' } },
    selectedroles: field.links('user.field.roles', { entity: 'role' }, 'roleName'),
    selecteddeparts: field.links('user.field.departs', { entity: 'depart' }, 'departName', {
      widget: { kind: 'treeSelect', entity: 'depart', multiple: true },
    }),
    // the origin's user form: an ordinary member or a superior, and the groups a superior is responsible for
    userIdentity: {
      label: 'user.field.userIdentity',
      kind: 'integer',
      schema: z.number().int().min(1).max(2),
      widget: { kind: 'options', options: [{ value: '1', label: 'user.identity.ordinary' }, { value: '2', label: 'user.identity.superior' }] },
      required: true,
      defaultValue: 1,
    },
    departIds: field.links('user.field.departIds', { entity: 'depart' }, 'departName', { widget: { kind: 'treeSelect', entity: 'depart', multiple: true } }),
    orgCode: field.text('user.field.orgCode', 64, { readOnly: true }),
    tenantId: field.dict('user.field.tenantId', TENANT_DICT, { schema: idSchema, systemAdminOnly: true }),
    status: field.dictInteger('user.field.status', 'user_status', { readOnly: true, defaultValue: UserStatus.normal }),
  },
  columns: ['username', 'realname', 'sex', 'phone', 'email', 'selecteddeparts', 'selectedroles', 'status', 'createTime'],
  detailFields: ['workNo', 'birthday', 'userIdentity', 'departIds', 'orgCode', 'tenantId'],
  search: { username: 'contains', realname: 'contains', workNo: 'contains', sex: 'exact', phone: 'contains', status: 'exact', selecteddeparts: 'exact', selectedroles: 'exact' },
  sortable: ['username', 'realname', 'sex', 'status', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [
    { field: 'username', message: 'duplicate.userName', global: true },
    { field: 'phone', message: 'duplicate.phone', global: true },
    { field: 'email', message: 'duplicate.email', global: true },
    { field: 'workNo', message: 'duplicate.workNo' },
  ],
  tenantScoped: true,
  softDelete: { recycleBin: true },
  extraActions: ['frozen', 'resetPassword', 'agent'],
};

/** SPEC section 3: an agent acts for a user between a start and an end time while the setting is valid. */
export const userAgentEntity: EntityDeclaration = {
  name: 'userAgent',
  title: 'userAgent.title',
  basePath: '/sys/sysUserAgent',
  permissionPrefix: 'system:userAgent',
  component: 'system/userAgent',
  labelField: 'agentUserName',
  fields: {
    userName: { label: 'userAgent.field.userName', kind: 'string', schema: userName, widget: { kind: 'input' }, required: true },
    agentUserName: { label: 'userAgent.field.agentUserName', kind: 'string', schema: userName, widget: { kind: 'entitySelect', entity: 'user', labelField: 'realname', valueField: 'username' }, required: true, references: { entity: 'user', valueField: 'username' } },
    startTime: field.datetime('userAgent.field.startTime', { required: true }),
    endTime: field.datetime('userAgent.field.endTime', { required: true }),
    status: field.dictInteger('userAgent.field.status', 'valid_status', { required: true, defaultValue: 1 }),
  },
  columns: ['userName', 'agentUserName', 'startTime', 'endTime', 'status'],
  search: { userName: 'exact', agentUserName: 'contains', status: 'exact' },
  sortable: ['startTime', 'endTime', 'status'],
  defaultSort: { field: 'startTime', order: 'desc' },
  unique: [{ field: 'userName', message: 'duplicate.userAgent' }],
  tenantScoped: true,
  actions: ['list', 'add', 'edit', 'delete'],
};

/** Screens of users and groups. */
export const userEntities: readonly EntityDeclaration[] = [userEntity, departEntity, userAgentEntity];

/** Calls of the users screen beyond the generic ones (SPEC section 7). */
export const UserAdminPath = {
  /** PUT `{ ids: 'a,b', status: 1 | 2 }`: thaw (1) or freeze (2); freezing ends their sessions */
  frozenBatch: '/sys/user/frozenBatch',
  /** PUT `{ username, password, confirmpassword }`: an administrator sets a user's password */
  changePassword: '/sys/user/changePassword',
  /** GET ?userid= : the user's role ids */
  queryUserRole: '/sys/user/queryUserRole',
  /** GET ?username= | phone= | email= (&id= when editing): is the value free */
  checkOnlyUser: '/sys/user/checkOnlyUser',
  /** GET ?id= (group id): the group's users */
  queryUserByDepId: '/sys/user/queryUserByDepId',
  /** GET: role names by user id */
  queryUserRoleMap: '/sys/user/queryUserRoleMap',
  /** POST `{ depId, userIdList: 'a,b' }`: puts existing users into a group (needs system:departUser:add) */
  addUsersToDepart: '/sys/user/editSysDepartWithUser',
  /** DELETE ?depId=&userIds=a,b : takes users out of a group */
  removeUsersFromDepart: '/sys/user/deleteUserInDepartBatch',
} as const;

/** Button permissions of a group's user list (SPEC section 6). */
export const DepartUserPerm = { add: 'system:departUser:add', remove: 'system:departUser:delete' } as const;

export const addUsersToDepartBody = z.object({ depId: z.string().regex(ID_PATTERN), userIdList: z.string().min(1).max(33_000) });

export const changeUserPasswordBody = z.object({
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
  confirmpassword: z.string().min(1).max(200),
});
export type ChangeUserPasswordBody = z.infer<typeof changeUserPasswordBody>;
