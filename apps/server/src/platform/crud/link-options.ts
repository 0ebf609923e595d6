import { crudPath, maskCardNo, type EntityDeclaration, type LinkOption, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import { callerOf, type CurrentUser, type RouteAccess } from '../access.ts';
import { AppError } from '../envelope.ts';
import { showSeededRows } from '../seeded-texts.ts';
import { containsText, pagingOf, type Query } from './query.ts';
import { readPage } from './reading.ts';
import { tableOf } from './tables.ts';
import { readableFields } from './values.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

/** What the linked entity's list reads for a caller: its tenant scope and data rules (the engine's `listed`). */
export interface LinkTarget {
  declaration: EntityDeclaration;
  listed(caller: CurrentUser, query: Query): Promise<SelectQueryBuilder<Row, string, Row>>;
}

/** A form field whose picker lists another entity's rows. */
interface LinkedField {
  entity: string;
  /** the linked entity's field shown; its declared `labelField` when the widget names none */
  labelField?: string;
  valueField: string;
  systemAdminOnly: boolean;
}

/** The fields of an entity's form whose pickers list another entity's rows: link fields and entitySelect widgets. */
export function linkedFieldsOf(entity: EntityDeclaration): ReadonlyMap<string, LinkedField> {
  const fields = new Map<string, LinkedField>();
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.readOnly) continue;
    const widget = field.widget;
    const select = widget.kind === 'entitySelect' ? widget : undefined;
    const linked = field.link?.entity ?? select?.entity;
    if (!linked) continue;
    // a link stores the linked rows' ids, whatever the widget shows
    fields.set(name, { entity: linked, labelField: select?.labelField, valueField: field.link ? 'id' : (select?.valueField ?? 'id'), systemAdminOnly: Boolean(field.systemAdminOnly) });
  }
  return fields;
}

const single = (value: unknown): string => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
};

/**
 * GET `<basePath>/linkOptions?field=&keyword=&pageNo=&pageSize=`: the choices of one picker of the entity's form, for
 * those who may add or edit its rows though they may not read the linked list (a device administrator picks users).
 * Only value and label of each row, through the linked list's own reading (tenant scope, data rules).
 */
export function linkOptionsRoute(app: FastifyInstance, routes: FastifyInstance, entity: EntityDeclaration, access: RouteAccess, targetOf: (table: string) => LinkTarget | undefined): void {
  const fields = linkedFieldsOf(entity);
  if (fields.size === 0) return;
  routes.get(crudPath(entity, 'linkOptions'), { schema: { tags: [entity.name], summary: `Choices of a picker of the ${entity.name} form` }, config: { permission: access } }, async (request, reply) => {
    const caller = callerOf(request);
    const query = request.query as Query;
    const name = single(query.field);
    const spec = fields.get(name);
    const target = spec ? targetOf(tableOf(spec.entity)) : undefined;
    const declared = target ? readableFields(target.declaration) : undefined;
    const label = declared?.get(spec?.labelField ?? target?.declaration.labelField ?? '');
    const value = declared?.get(spec?.valueField ?? 'id');
    if (!spec || !target || !label || !value || (spec.systemAdminOnly && !caller.systemAdmin)) {
      throw new AppError('badRequest', 'crud.noLinkOptions', { field: name.slice(0, 64) });
    }
    const { pageNo, pageSize } = pagingOf(query);
    const keyword = single(query.keyword).slice(0, 100);
    const listed = await target.listed(caller, {});
    // a label no LIKE reads (a number) is matched whole
    const reading = keyword ? listed.where((eb) => containsText(eb, label, keyword) ?? eb(label.column, '=', keyword)) : listed;
    const { rows: read, total } = await readPage(app, reading, { column: label.column, order: 'asc' }, pageNo, pageSize);
    const rows = await showSeededRows(app, target.declaration.name, read, request.lang);
    // an ID number is shown as lists show it: its last four characters
    const masked = Boolean(target.declaration.fields[label.name]?.maskedInLists);
    const records = rows.map((row): LinkOption => {
      const text = String(row[label.column] ?? row.id);
      return { value: String(row[value.column] ?? row.id), label: masked ? maskCardNo(text) : text };
    });
    const page: Page<LinkOption> = { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
    return reply.ok(page);
  });
}
