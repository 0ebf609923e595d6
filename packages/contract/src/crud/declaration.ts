/**
 * Entity declarations: one plain object per list-and-form screen, read by the server (routes, SQL, checks) and by
 * the console (list page, search form, modal form, detail view). Nothing here runs server code.
 *
 * For the web engineer, reading a declaration `d`:
 * - Routes: `d.basePath + CrudVerb.list` etc. (see `crudPath`); `list` takes `pageNo`, `pageSize`, `column`, `order`,
 *   one parameter per `d.search` field (value syntax `*x*` contains, `x*` starts with, `a,b` one of, `!x` not;
 *   a `range` field takes `<field>_begin` / `<field>_end`), and `superQueryParams` + `superQueryMatchType`.
 * - Buttons: `permissionCode(d, 'add')` → 'system:position:add'. Actions: list, add, edit, delete (also deleteBatch),
 *   export, import, recycleBin (restore / complete delete), plus `d.extraActions`.
 * - Labels are i18n keys: `d.title` for the screen, `d.fields[name].label` per field. Their texts in the three
 *   languages are in `entityLabels` (merge them into the console catalogues).
 * - Table: `d.columns` in order; a field with `dict` gets `<field>_dictText` in list rows (show that text);
 *   `d.sortable` columns may be sorted by the server; `d.defaultSort` is the initial order.
 * - Form: every field of `d.fields` not marked `readOnly` in `d.formFields` order; `widget` says how to edit it,
 *   `schema` validates it (the server uses the very same schema); `required` fields need a value on add.
 *   `writeOnly` fields (passwords) are never returned: leave them empty on edit to keep the stored value.
 * - Detail view: `d.columns` plus `d.detailFields`.
 * - Tree entities (`d.tree`): `queryTreeList` returns the rows nested under `children`; the parent field's widget is
 *   `treeSelect`. Recycle bin (`d.softDelete.recycleBin`): `recycleBin` (list), `putRecycleBin` (restore `{ids}`),
 *   `deleteRecycleBin?ids=` (complete delete).
 * - Rows carry `id`, `createBy`, `createTime`, `updateBy`, `updateTime` besides the declared fields.
 */
import type { z } from 'zod';
import type { MessageKey } from '../messages/index.ts';

/** How a field is edited in the modal form. */
export type Widget =
  | { kind: 'input' }
  | { kind: 'textarea' }
  | { kind: 'number'; min?: number; max?: number }
  /** options from GET /sys/dict/getDictItems/{dict} */
  | { kind: 'select'; dict: string }
  /** options from another registered entity's list (value = id or `valueField`, text = `labelField`); `multiple`: values joined by commas */
  | { kind: 'entitySelect'; entity: string; labelField: string; valueField?: string; multiple?: boolean }
  /** 1 on, 0 off */
  | { kind: 'switch' }
  | { kind: 'date' }
  | { kind: 'datetime' }
  /** a node of a tree entity (from its queryTreeList): the same entity unless `entity` names another; `multiple`: ids joined by commas */
  | { kind: 'treeSelect'; entity?: string; multiple?: boolean }
  /** write-only: never returned by the server; empty on edit keeps the stored value */
  | { kind: 'password' }
  /** a JSON object edited as text */
  | { kind: 'json' }
  /** the JSON text of a check rule set (`CheckRuleSet`), edited as a table of local rules and one of global rules */
  | { kind: 'checkRules' }
  /** an icon name picked from the antd outlined icons ('setting', 'area-chart') */
  | { kind: 'icon' }
  /** a Quartz cron expression, edited with presets and a readable description */
  | { kind: 'cron' }
  /** a choice from a fixed list declared in the contract; `label` is an i18n key; `multiple`: values joined by commas */
  | { kind: 'options'; options: ReadonlyArray<{ value: string; label: string }>; multiple?: boolean }
  /** an image uploaded through /sys/common/upload (at most `maxBytes`); the value is the stored file's path */
  | { kind: 'image'; maxBytes: number }
  /** a document uploaded through /sys/common/upload (at most `maxBytes`); the value is the stored file's path, shown as a download link */
  | { kind: 'file'; maxBytes: number }
  /** a time setting (`TimeSetting` as JSON text): permanent, or custom with dates, periods and day kinds */
  | { kind: 'timeSetting' };

/** How a value is stored and compared: strings, integers, ISO times (UTC) or JSON objects (stored as text). */
export type FieldKind = 'string' | 'integer' | 'date' | 'datetime' | 'json';

/** How a plain search value matches: contains (LIKE), exact (=), range (`_begin`/`_end`), one-of (`a,b`). */
export type MatchKind = 'contains' | 'exact' | 'range' | 'oneOf';

export interface FieldDeclaration {
  /** i18n key of the label, `<entity>.field.<name>` */
  label: string;
  kind: FieldKind;
  /** validates a present, non-empty value (on add and edit; the console uses it for the form too) */
  schema: z.ZodType;
  widget: Widget;
  /** must be given (non-empty) on add; on edit it may be left out but never emptied */
  required?: boolean;
  /** dictionary code: list rows get `<field>_dictText` */
  dict?: string;
  /** never returned (passwords); stored by the server's hook (encrypted or hashed) */
  writeOnly?: boolean;
  /** lists and exports show only its last four characters (as card numbers); the full value in the detail, for those who may edit */
  maskedInLists?: boolean;
  /**
   * A check against another field of the row (an ID number against its ID type): the form runs it whenever either
   * changes; the server's hook runs the same with the stored row on an edit. Null when the value fits.
   */
  crossCheck?: { field: string; problem: (value: string, other: unknown) => MessageKey | null };
  /** filled by the server (generated codes, computed values); not in the form */
  readOnly?: boolean;
  /** the value may be an i18n key (menu titles): the console shows its text */
  translated?: boolean;
  /** database column when it differs from the snake_case of the field name */
  column?: string;
  /**
   * The form picks among the choices GET `optionsFrom` answers (`ServerOption[]`, texts in the reader's language)
   * instead of the widget's own list, and the server accepts only a value it offers; lists and exports still name
   * values through the widget (`options` labels or `dict`).
   */
  optionsFrom?: string;
  /**
   * The picker (an entity or tree select) offers only the values GET `choosableFrom` answers (`string[]`, or null for
   * any): what the caller may grant. The server refuses the others whatever the picker offered; values already set
   * stay shown.
   */
  choosableFrom?: string;
  /**
   * The value names a row of another entity (by its id, or by its `valueField`): on add, edit and import the server
   * accepts only a row visible in the written row's tenant. Link fields name theirs in `link`, tree parents in `tree`.
   */
  references?: ReferenceDeclaration;
  /** value used on add when the field is left empty */
  defaultValue?: string | number;
  /** written only by system administrators (a row's tenant): others' value is ignored and their form hides it */
  systemAdminOnly?: boolean;
  /**
   * Not a column: ids of another entity's rows joined by commas, kept in a link table the server declares (a user's
   * roles). Rows carry the ids and `<field>_dictText` with the linked rows' labels; an `exact` search by one
   * id finds the rows linked to it.
   */
  link?: LinkDeclaration;
}

/** A link field's linked entity; its link table and columns are the server's (the browser never names a table). */
export interface LinkDeclaration {
  /** the linked entity's name (its rows' `labelField` gives the labels) */
  entity: string;
}

export interface ReferenceDeclaration {
  /** the named entity ('area', 'device', 'depart', …) */
  entity: string;
  /** the field of that entity the value holds, when it is not the id (a user name, a plugin code) */
  valueField?: string;
}

export interface UniqueDeclaration {
  field: string;
  /** unique among rows with the same values of these fields (a dictionary item value within its dictionary) */
  within?: readonly string[];
  /** the refusal message, e.g. 'duplicate.code' → 'Code already exists!' */
  message: MessageKey;
  /** the refusal when every `within` field is empty (a top-level node of a tree has no parent to name) */
  topMessage?: MessageKey;
  /** unique across every tenant even in a tenant-scoped entity (the database holds one such value in all) */
  global?: boolean;
}

export type CrudAction = 'list' | 'add' | 'edit' | 'delete' | 'export' | 'import' | 'recycleBin';

export interface EntityDeclaration {
  /** unique name, also the label namespace: 'position' */
  name: string;
  /** i18n key of the screen title */
  title: string;
  /** API base below API_PREFIX: '/sys/position' */
  basePath: string;
  /** button permission prefix: '<prefix>:<action>' (see `permissionCode`) */
  permissionPrefix: string;
  /** component of the menu item that shows this screen: 'system/position' */
  component: string;
  fields: Record<string, FieldDeclaration>;
  /** list columns, in order */
  columns: readonly string[];
  /**
   * the columns a phone shows first, in this order, each on one line (the first stays at the left while the others
   * scroll), so the row's name and state read without scrolling sideways; the other columns follow as declared
   */
  phoneColumns?: readonly string[];
  /** form fields, in order (defaults to every field not readOnly) */
  formFields?: readonly string[];
  /** fields shown only in the detail view */
  detailFields?: readonly string[];
  search: Readonly<Record<string, MatchKind>>;
  sortable: readonly string[];
  defaultSort: { field: string; order: 'asc' | 'desc' };
  unique?: readonly UniqueDeclaration[];
  /** rows carry tenant_id; a tenant user sees and writes only their tenant's rows */
  tenantScoped?: boolean;
  /** with tenantScoped: a system administrator sees and deletes the rows of every tenant (a platform-wide list) */
  acrossTenantsForSystemAdmin?: boolean;
  /** rows carry del_flag; delete marks them, and with recycleBin they can be restored or deleted completely */
  softDelete?: { recycleBin: boolean };
  /** a tree: each row names its parent by this field ('' or null for roots); `path` replaces queryTreeList's */
  tree?: { parentField: string; labelField: string; path?: string };
  /** the field the console shows as the row's name (confirm dialogs, selectors) */
  labelField: string;
  /** actions the screen offers; defaults to list, add, edit, delete, export, import (+ recycleBin when declared) */
  actions?: readonly CrudAction[];
  /** extra button permissions of this screen beyond the CRUD actions: 'test' → '<prefix>:test' */
  extraActions?: readonly string[];
  /** a column an open list keeps current from real-time messages, without reloading */
  live?: LiveColumnDeclaration;
  /** real-time messages (`cmd`) after which an open list reads its page again: rows the devices add appear without a reload */
  reloadOn?: readonly string[];
  /** i18n key of what deleting a row also removes, shown in the delete confirmations */
  deleteWarning?: string;
  /** buttons of each row that call a route with the row's id */
  rowCommands?: readonly RowCommandDeclaration[];
  /** one-to-many: tables of lines that belong to each row, saved, deleted, exported and imported with it */
  details?: readonly DetailDeclaration[];
}

/**
 * Lines of a row kept in a table of their own (an order's customers): add and edit carry them as an array under
 * `name` beside the row's fields and store them in the row's transaction (an edit's array replaces the lines: a line
 * with the `id` of one of the row's lines changes it, one without is new, the lines left out are deleted; an edit
 * without the array keeps them). They take the row's tenant and leave with the row. GET `basePath + path?id=` answers
 * the row's lines (for holders of its list permission); an export writes each row's lines below it, one line a
 * spreadsheet row, with the row's own cells on its first, and an import reads them back the same way.
 */
export interface DetailDeclaration {
  /** the lines' key in bodies and rows: 'jeecgOrderCustomerList' */
  name: string;
  /** i18n key of the lines' tab (and of their columns' prefix in a spreadsheet) */
  title: string;
  /** i18n key naming one line in a refusal ('Customer' → 'Customer 2: …') */
  lineLabel: string;
  /** the route of one row's lines, below `basePath`: '/queryOrderCustomerListByMainId' */
  path: string;
  fields: Record<string, FieldDeclaration>;
  /** the fields in order: table columns, form controls, spreadsheet columns */
  columns: readonly string[];
}

/** Most lines of one detail a row may hold. */
export const MAX_DETAIL_LINES = 200;

/** The route answering one row's lines of a detail. */
export function detailPath(entity: Pick<EntityDeclaration, 'basePath'>, detail: Pick<DetailDeclaration, 'path'>): string {
  return entity.basePath + detail.path;
}

const shapes = new WeakMap<DetailDeclaration, EntityDeclaration>();

/**
 * A detail's lines as a declaration of their own (their fields, the owner's name and paths), for the helpers that
 * read a declaration's fields: one object per detail, so what they work out once per declaration stays worked out.
 */
export function detailShape(entity: EntityDeclaration, detail: DetailDeclaration): EntityDeclaration {
  let shape = shapes.get(detail);
  if (!shape) {
    const { details: _details, unique: _unique, tree: _tree, softDelete: _softDelete, ...owner } = entity;
    shape = { ...owner, name: `${entity.name}.${detail.name}`, title: detail.title, fields: detail.fields, columns: detail.columns, formFields: detail.columns, search: {}, sortable: [], labelField: detail.columns[0] ?? 'id' };
    shapes.set(detail, shape);
  }
  return shape;
}

/**
 * A live column: a real-time message whose `cmd` is a key of `on` sets `field` to that value on the rows it names
 * (`data.ids`, else the ids of `data.devices`, else `msgId`). When the message counts more rows than it names
 * (`data.count`), the list is read again.
 */
export interface LiveColumnDeclaration {
  field: string;
  on: Readonly<Record<string, string | number>>;
  /** how each value is drawn: an antd badge status per value */
  badges?: Readonly<Record<string, 'success' | 'processing' | 'default' | 'error' | 'warning'>>;
}

/** A row button calling `method path` with `id` = the row's id plus `params` (query for GET/DELETE, body otherwise). */
export interface RowCommandDeclaration {
  name: string;
  /** i18n key of the button */
  label: string;
  /** permission action (`<prefix>:<permission>`), `name` when not given */
  permission?: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params?: Readonly<Record<string, string | number>>;
  /** i18n key of a confirmation asked first; `{{name}}` is the row's label */
  confirm?: string;
  danger?: boolean;
  /** a refusal (success false) is shown as a warning rather than an error */
  refusalAsWarning?: boolean;
  /** a field of the answer's result shown once in a dialog (a key issued once) */
  showResult?: string;
}

export const CrudVerb = {
  list: '/list',
  queryById: '/queryById',
  add: '/add',
  edit: '/edit',
  delete: '/delete',
  deleteBatch: '/deleteBatch',
  exportXls: '/exportXls',
  importExcel: '/importExcel',
  queryTreeList: '/queryTreeList',
  recycleBin: '/recycleBin',
  putRecycleBin: '/putRecycleBin',
  deleteRecycleBin: '/deleteRecycleBin',
  /**
   * GET `?field=&keyword=&pageNo=&pageSize=`: the choices of one link or entitySelect field of the form, as a page of
   * `LinkOption` (the linked rows the caller may see, by their label), for holders of the owner's add or edit
   */
  linkOptions: '/linkOptions',
} as const;
export type CrudVerbName = keyof typeof CrudVerb;

export function crudPath(entity: Pick<EntityDeclaration, 'basePath'>, verb: CrudVerbName): string {
  return entity.basePath + CrudVerb[verb];
}

/** The route of a tree entity's whole tree. */
export function treePath(entity: Pick<EntityDeclaration, 'basePath' | 'tree'>): string {
  return entity.tree?.path ?? crudPath(entity, 'queryTreeList');
}

export function permissionCode(entity: Pick<EntityDeclaration, 'permissionPrefix'>, action: CrudAction | (string & {})): string {
  return `${entity.permissionPrefix}:${action}`;
}

export function entityActions(entity: EntityDeclaration): readonly CrudAction[] {
  if (entity.actions) return entity.actions;
  const base: CrudAction[] = ['list', 'add', 'edit', 'delete', 'export', 'import'];
  return entity.softDelete?.recycleBin ? [...base, 'recycleBin'] : base;
}

/** Every button permission code the screen needs (the seeded menu tree holds each). */
export function entityPermissionCodes(entity: EntityDeclaration): string[] {
  return [...entityActions(entity), ...(entity.extraActions ?? [])].map((a) => permissionCode(entity, a));
}

/**
 * Write-only fields an add needs (passwords): exports never carry them, so an import asks for an initial value of
 * each, sent with the upload as a form field of the same name, for the rows whose sheet leaves it empty.
 */
export function importInitialFields(entity: EntityDeclaration): string[] {
  return Object.keys(entity.fields).filter((name) => entity.fields[name]?.writeOnly && entity.fields[name]?.required);
}

export function formFieldsOf(entity: EntityDeclaration): string[] {
  return entity.formFields ? [...entity.formFields] : Object.keys(entity.fields).filter((f) => !entity.fields[f]?.readOnly);
}

export function columnOf(entity: EntityDeclaration, field: string): string {
  return entity.fields[field]?.column ?? field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Fields every row carries besides the declared ones, with their columns. */
export const AUDIT_FIELDS = { createBy: 'create_by', createTime: 'create_time', updateBy: 'update_by', updateTime: 'update_time' } as const;

/** superQueryParams entry rules (DESIGN section 5). */
export const SUPER_QUERY_RULES = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'in', 'not_in', 'empty', 'not_empty'] as const;
export type SuperQueryRule = (typeof SUPER_QUERY_RULES)[number];
export interface SuperQueryCondition {
  field: string;
  rule: SuperQueryRule;
  val?: string | number | null;
}

export const MAX_PAGE_SIZE = 1000;

/** A choice of a form's link or entitySelect field (GET …/linkOptions): the linked row's value and label only. */
export interface LinkOption {
  value: string;
  label: string;
}

/** Result of POST …/importExcel: one entry per data row (row numbers as shown in the spreadsheet). */
export interface ImportReport {
  total: number;
  added: number;
  failed: number;
  rows: Array<{ row: number; success: true; id: string } | { row: number; success: false; message: string }>;
}

/** A node of GET …/queryTreeList. */
export type TreeRow = Record<string, unknown> & { id: string; key: string; title: string; value: string; children?: TreeRow[] };
