import * as z from 'zod';
import { TENANT_DICT } from '../http.ts';
import { idSchema } from '../ids.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, textSchema } from './fields.ts';

/** SPEC sections 3 and 6: a role is for users or for device administrators. */
export const RoleType = { user: 1, deviceAdmin: 2 } as const;

/** Roles (SPEC section 5: name 2 to 30, code at most 64 without Chinese, description at most 126). */
export const roleEntity: EntityDeclaration = {
  name: 'role',
  title: 'role.title',
  basePath: '/sys/role',
  permissionPrefix: 'system:role',
  component: 'system/role',
  labelField: 'roleName',
  fields: {
    roleName: field.text('role.field.roleName', 30, { schema: textSchema(30, 2), required: true }),
    roleCode: field.code('role.field.roleCode', 64, { required: true }),
    roleType: {
      label: 'role.field.roleType',
      kind: 'integer',
      schema: z.union([z.literal(RoleType.user), z.literal(RoleType.deviceAdmin)], { error: 'validation.invalid' }),
      widget: { kind: 'options', options: [{ value: String(RoleType.user), label: 'role.type.user' }, { value: String(RoleType.deviceAdmin), label: 'role.type.deviceAdmin' }] },
      required: true,
      defaultValue: RoleType.user,
    },
    tenantId: field.dict('role.field.tenantId', TENANT_DICT, { schema: idSchema, systemAdminOnly: true }),
    description: field.text('role.field.description', 126, { widget: { kind: 'textarea' } }),
  },
  columns: ['roleName', 'roleCode', 'roleType', 'description', 'createTime'],
  detailFields: ['tenantId'],
  search: { roleName: 'contains', roleCode: 'contains', roleType: 'exact', createTime: 'range' },
  sortable: ['roleName', 'roleCode', 'roleType', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'roleCode', message: 'duplicate.roleCode', global: true }],
  tenantScoped: true,
  extraActions: ['authorize'],
};

/** Calls of the roles screen beyond the generic ones (SPEC section 7). */
export const RolePath = {
  /** GET: every role the caller may hand out, for selectors: `{ id, roleName, roleCode }[]` */
  queryall: '/sys/role/queryall',
  /** GET: the whole menu and button tree: `{ treeList: PermissionTreeNode[], ids: string[] }` */
  permissionTree: '/sys/permission/queryTreeList',
  /** GET ?roleId=: the permission ids of a role */
  queryRolePermission: '/sys/permission/queryRolePermission',
  /** POST `{ roleId, permissionIds: 'a,b' }`: replaces the role's permissions */
  saveRolePermission: '/sys/permission/saveRolePermission',
} as const;

export interface PermissionTreeNode {
  key: string;
  /** a menu title key (`menu.*`) or a button's own name */
  title: string;
  /** 0 level-one menu, 1 submenu, 2 button */
  menuType: number;
  perms: string | null;
  children?: PermissionTreeNode[];
}

export interface RoleOption {
  id: string;
  roleName: string;
  roleCode: string;
}

/**
 * Group roles (SPEC sections 2, 5, 6): roles that exist inside one group and give permissions there, chosen from the
 * group's own permissions. Name 2 to 30, code at most 126 without Chinese and unique within the group.
 */
export const departRoleEntity: EntityDeclaration = {
  name: 'departRole',
  title: 'departRole.title',
  basePath: '/sys/sysDepartRole',
  permissionPrefix: 'system:departRole',
  component: 'system/departRole',
  labelField: 'roleName',
  fields: {
    departId: { label: 'departRole.field.departId', kind: 'string', schema: idSchema, widget: { kind: 'treeSelect', entity: 'depart' }, required: true, references: { entity: 'depart' } },
    roleName: field.text('departRole.field.roleName', 30, { schema: textSchema(30, 2), required: true }),
    roleCode: field.code('departRole.field.roleCode', 126, { required: true }),
    description: field.text('departRole.field.description', 126, { widget: { kind: 'textarea' } }),
  },
  columns: ['roleName', 'roleCode', 'description', 'createTime'],
  search: { departId: 'exact', roleName: 'contains', roleCode: 'contains' },
  sortable: ['roleName', 'roleCode', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'roleCode', within: ['departId'], message: 'duplicate.departRoleCode' }],
  tenantScoped: true,
  extraActions: ['authorize', 'user'],
};

/** Calls of group permissions and group roles beyond the generic ones (SPEC section 7, origin console spellings). */
export const DepartRolePath = {
  /** GET ?departId=: the permission ids a group holds */
  queryDepartPermission: '/sys/permission/queryDepartPermission',
  /** POST `{ departId, permissionIds: 'a,b', lastpermissionIds? }`: replaces a group's permissions (its roles lose what it loses) */
  saveDepartPermission: '/sys/permission/saveDepartPermission',
  /** GET ?departId=: the menu and button tree limited to what the group holds: `{ treeList, ids }` */
  queryTreeListForDeptRole: '/sys/sysDepart/queryTreeListForDeptRole',
  /** GET ?roleId=: the permission ids of a group role */
  queryDeptRolePermission: '/sys/sysDepart/queryDeptRolePermission',
  /** POST `{ roleId, permissionIds: 'a,b', lastpermissionIds? }`: replaces a group role's permissions, within its group's */
  saveDeptRolePermission: '/sys/sysDepart/saveDeptRolePermission',
  /** POST `{ userId: 'a,b', newRoleId: 'x,y', oldRoleId: 'x' }`: gives the users the new group roles and takes the old ones they lose */
  deptRoleUserAdd: '/sys/sysDepartRole/deptRoleUserAdd',
  /** GET ?userId=&departId=: the group role links of a user in a group: `DepartRoleUser[]` */
  getDeptRoleByUserId: '/sys/sysDepartRole/getDeptRoleByUserId',
  /** GET ?roleId=: the users holding a group role: `DepartRoleHolder[]` */
  getDeptRoleUsers: '/sys/sysDepartRole/getDeptRoleUsers',
  /** GET ?departId=&permissionId=: a menu's data rules and the ones the group may hand to its roles: `DataRuleChoices` */
  queryDepartDataRule: '/sys/sysDepartPermission/datarule',
  /** POST `{ departId, permissionId, dataRuleIds: 'a,b' }`: replaces the group's; its roles lose what it loses */
  saveDepartDataRule: '/sys/sysDepartPermission/datarule',
  /** GET ?roleId=&permissionId=: the group's data rules of a menu and the ones the group role holds: `DataRuleChoices` */
  queryDeptRoleDataRule: '/sys/sysDepartRole/datarule',
  /** POST `{ roleId, permissionId, dataRuleIds: 'a,b' }`: replaces the group role's, chosen from its group's */
  saveDeptRoleDataRule: '/sys/sysDepartRole/datarule',
} as const;

const idList = z.string().max(70_000);

export const saveDepartPermissionBody = z.object({ departId: idSchema, permissionIds: z.string().max(200_000), lastpermissionIds: z.string().max(200_000).optional() });
export const saveDeptRolePermissionBody = z.object({ roleId: idSchema, permissionIds: z.string().max(200_000), lastpermissionIds: z.string().max(200_000).optional() });
export const saveDepartDataRuleBody = z.object({ departId: idSchema, permissionId: idSchema, dataRuleIds: z.string().max(33_000) });
export const saveDeptRoleDataRuleBody = z.object({ roleId: idSchema, permissionId: idSchema, dataRuleIds: z.string().max(33_000) });
export const deptRoleUserAddBody = z.object({ userId: idList, newRoleId: idList.optional().default(''), oldRoleId: idList.optional().default('') });

export interface DepartRoleUser {
  id: string;
  userId: string;
  droleId: string;
}

export interface DepartRoleHolder {
  id: string;
  username: string;
  realname: string;
}
