import { z } from 'zod';
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
  table: 'sys_role',
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
    description: field.text('role.field.description', 126, { widget: { kind: 'textarea' } }),
  },
  columns: ['roleName', 'roleCode', 'roleType', 'description', 'createTime'],
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
