import * as z from 'zod';
import { idSchema } from '../ids.ts';
import { ID_TYPES, IdType, VISITOR_CATEGORIES, VisitorStatus, idNumberCrossCheck, idNumberSchema } from '../visitor.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, phoneSchema } from './fields.ts';

/** Option labels of the visitor categories (the same keys the visitor area uses). */
export const VISITOR_CATEGORY_OPTIONS = VISITOR_CATEGORIES.map((value) => ({
  value,
  label: `visitor.category${value.charAt(0).toUpperCase()}${value.slice(1)}`,
}));

/** SPEC section 5: people (and visitor) passwords are 6 to 8 digits, what door keypads accept. */
export const visitorPasswordSchema = z.string().regex(/^\d{6,8}$/, { error: 'validation.visitorPassword' });

/** Visitors as the staff see them: the records the visitor area signs in against (SPEC sections 2 to 5). */
export const visitorEntity: EntityDeclaration = {
  name: 'visitor',
  title: 'visitor.title',
  basePath: '/sysVistor',
  permissionPrefix: 'vistor:list',
  component: 'vistor/list',
  labelField: 'name',
  fields: {
    name: field.text('visitor.field.name', 100, { required: true }),
    idType: field.dict('visitor.field.idType', 'id_type', { schema: z.enum(ID_TYPES, { error: 'validation.invalid' }), required: true, defaultValue: IdType.resident }),
    // checked against idType by the server (visitor module); lists show only its last four characters
    idCard: { label: 'visitor.field.idCard', kind: 'string', schema: idNumberSchema, widget: { kind: 'input' }, required: true, maskedInLists: true, crossCheck: idNumberCrossCheck() },
    phone: { label: 'visitor.field.phone', kind: 'string', schema: phoneSchema, widget: { kind: 'input' }, required: true },
    category: { label: 'visitor.field.category', kind: 'string', schema: z.enum(VISITOR_CATEGORIES, { error: 'validation.invalid' }), widget: { kind: 'options', options: VISITOR_CATEGORY_OPTIONS }, required: true, defaultValue: 'general' },
    password: field.password('visitor.field.password', 8, { schema: visitorPasswordSchema, required: true }),
    // SPEC section 3: a visitor can be linked to a console user (the host he visits)
    userId: { label: 'visitor.field.userId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'user', labelField: 'realname' }, references: { entity: 'user' } },
    status: field.dictInteger('visitor.field.status', 'user_status', { readOnly: true, defaultValue: VisitorStatus.normal }),
  },
  columns: ['name', 'idType', 'idCard', 'phone', 'category', 'userId', 'status', 'createTime'],
  search: { name: 'contains', idCard: 'exact', phone: 'contains', category: 'exact', userId: 'exact', status: 'exact', createTime: 'range' },
  sortable: ['name', 'phone', 'category', 'status', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [
    { field: 'phone', message: 'duplicate.phone' },
    { field: 'idCard', message: 'duplicate.idCard' },
  ],
  tenantScoped: true,
  softDelete: { recycleBin: true },
  extraActions: ['frozen'],
};

/** Every declared screen of the visitor area. */
export const visitorEntities: readonly EntityDeclaration[] = [visitorEntity];

/** Staff calls of the visitor screen beyond the generic ones. */
export const VisitorAdminPath = {
  /** PUT `{ ids: 'a,b', status: 1 | 2 }`: thaw (1) or freeze (2); freezing ends their sessions */
  frozenBatch: '/sysVistor/frozenBatch',
} as const;
