import { randomUUID } from 'node:crypto';
import { detailPath, entityLabel, ID_PATTERN, MAX_DETAIL_LINES, translate, type Language } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../access.ts';
import { allDictionaryOptions } from '../dictionaries.ts';
import { AppError } from '../envelope.ts';
import { sameTenantAs } from '../tenancy.ts';
import type { Query } from './query.ts';
import { nowIso, requireId, routeOptions, type AnyDb, type EntityRuntime, type Row } from './runtime.ts';
import type { DetailRuntime } from './tables.ts';
import { readableFields, toApiRow, toColumns, validateInput } from './values.ts';

/** The lines of each detail an add or edit gives, validated: field values by name, plus the `id` of a kept line. */
export type DetailLines = Record<string, Row[]>;

/**
 * The lines `input` gives, each validated with its detail's schemas: a refusal names the detail's line by its number
 * ('Customer 2: …'). A detail left out of an edit is left out here (its lines stay); on add it has no lines.
 */
export function validateDetails(rt: EntityRuntime, input: Row, mode: 'add' | 'edit', lang: Language): DetailLines {
  const out: DetailLines = {};
  for (const { detail, shape } of rt.details) {
    const given = input[detail.name];
    if (given === undefined || given === null) {
      if (mode === 'add') out[detail.name] = [];
      continue;
    }
    const title = entityLabel(lang, detail.title);
    if (!Array.isArray(given) || given.some((line) => typeof line !== 'object' || line === null || Array.isArray(line))) {
      throw new AppError('badRequest', 'error.validation', { message: translate(lang, 'crud.detailNotList', { detail: title }) });
    }
    if (given.length > MAX_DETAIL_LINES) throw new AppError('badRequest', 'error.validation', { message: translate(lang, 'crud.detailTooMany', { detail: title, max: MAX_DETAIL_LINES }) });
    out[detail.name] = (given as Row[]).map((line, index) => {
      const validated = validateInput(shape, line, 'add', lang, rt.app.settings.timeZone);
      if (!validated.ok) {
        const message = translate(lang, 'crud.detailLine', { line: entityLabel(lang, detail.lineLabel), n: index + 1, message: validated.message });
        throw new AppError('badRequest', 'error.validation', { message });
      }
      // a line of the row's own keeps its id (checked against the row's lines when stored); another is new
      const id = typeof line.id === 'string' && ID_PATTERN.test(line.id) ? line.id : undefined;
      return id ? { ...validated.values, id } : validated.values;
    });
  }
  return out;
}

function lineRow(rt: EntityRuntime, d: DetailRuntime, ownerId: string, tenantId: string | null, values: Row, lineNo: number, by: string): Row {
  const { id: _id, ...fields } = values;
  return {
    ...toColumns(d.shape, fields),
    id: randomUUID(),
    [d.ownerColumn]: ownerId,
    line_no: lineNo,
    ...(rt.entity.tenantScoped ? { tenant_id: tenantId } : {}),
    create_by: by,
    create_time: nowIso(rt.app),
    update_by: null,
    update_time: null,
  };
}

/** The new lines of new rows (`owners`: each row's id, tenant and lines), inserted inside `trx`. */
export async function insertLines(rt: EntityRuntime, trx: AnyDb, owners: Array<{ id: string; tenantId: string | null; lines?: DetailLines }>, by: string): Promise<void> {
  for (const d of rt.details) {
    const rows = owners.flatMap((owner) => (owner.lines?.[d.detail.name] ?? []).map((line, index) => lineRow(rt, d, owner.id, owner.tenantId, line, index, by)));
    // a few hundred rows per statement: far below the bound parameters every engine accepts
    for (let i = 0; i < rows.length; i += 100) await trx.insertInto(d.table).values(rows.slice(i, i + 100)).execute();
  }
}

/**
 * An edit's lines inside `trx`: each given detail replaces the row's lines (a line naming one of them changes it, the
 * others are new, the row's lines not named leave); every line of the row takes its tenant (a row moved moves them).
 */
export async function replaceLines(rt: EntityRuntime, trx: AnyDb, ownerId: string, tenantId: string | null, lines: DetailLines, by: string): Promise<void> {
  for (const d of rt.details) {
    const given = lines[d.detail.name];
    if (given) {
      const stored = new Set((await trx.selectFrom(d.table).select('id').where(d.ownerColumn, '=', ownerId).execute()).map((r) => r.id as string));
      const isKept = (line: Row) => typeof line.id === 'string' && stored.has(line.id);
      const keptIds = given.filter(isKept).map((line) => line.id as string);
      let removing = trx.deleteFrom(d.table).where(d.ownerColumn, '=', ownerId);
      if (keptIds.length > 0) removing = removing.where('id', 'not in', keptIds);
      await removing.execute();
      // each line takes its place in the given order, kept ones changed where they are, new ones inserted
      const fresh: Row[] = [];
      for (const [index, line] of given.entries()) {
        const { id, ...fields } = line;
        if (!isKept(line)) {
          fresh.push(lineRow(rt, d, ownerId, tenantId, line, index, by));
          continue;
        }
        await trx
          .updateTable(d.table)
          .set({ ...toColumns(d.shape, fields), line_no: index, update_by: by, update_time: nowIso(rt.app) })
          .where('id', '=', id as string)
          .where(d.ownerColumn, '=', ownerId)
          .execute();
      }
      for (let i = 0; i < fresh.length; i += 100) await trx.insertInto(d.table).values(fresh.slice(i, i + 100)).execute();
    }
    if (rt.entity.tenantScoped) await trx.updateTable(d.table).set({ tenant_id: tenantId }).where(d.ownerColumn, '=', ownerId).execute();
  }
}

/** The lines of rows that leave the database, removed inside `trx`. */
export async function removeLines(rt: EntityRuntime, trx: AnyDb, ownerIds: string[]): Promise<void> {
  if (ownerIds.length === 0) return;
  for (const d of rt.details) await trx.deleteFrom(d.table).where(d.ownerColumn, 'in', ownerIds).execute();
}

/**
 * The lines of stored rows (`owners` as read, so already the caller's), as answered: fields by name, dictionary texts,
 * the owner's id; in their order (`line_no`). Each row's lines are read within its tenant.
 */
export async function linesOf(rt: EntityRuntime, owners: Row[], lang: Language): Promise<Map<string, Record<string, Row[]>>> {
  const out = new Map<string, Record<string, Row[]>>(owners.map((o) => [o.id as string, Object.fromEntries(rt.details.map((d) => [d.detail.name, [] as Row[]]))]));
  if (owners.length === 0 || rt.details.length === 0) return out;
  const options = await allDictionaryOptions(rt.app, lang);
  const byTenant = new Map<string | null, string[]>();
  for (const owner of owners) {
    const tenant = rt.entity.tenantScoped ? ((owner.tenant_id as string | null) ?? null) : null;
    byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), owner.id as string]);
  }
  for (const d of rt.details) {
    const dictFields = [...readableFields(d.shape).values()].filter((f) => f.dict);
    for (const [tenantId, ids] of byTenant) {
      for (let i = 0; i < ids.length; i += 500) {
        let reading = rt.db.selectFrom(d.table).selectAll().where(d.ownerColumn, 'in', ids.slice(i, i + 500));
        if (rt.entity.tenantScoped) reading = sameTenantAs(reading, tenantId);
        for (const stored of await reading.orderBy(d.ownerColumn).orderBy('line_no').execute()) {
          const line: Row = { ...toApiRow(d.shape, stored), [d.ownerField]: stored[d.ownerColumn] };
          for (const f of dictFields) {
            const value = line[f.name];
            line[`${f.name}_dictText`] = options[f.dict as string]?.find((o) => o.value === String(value))?.text ?? (value === null || value === undefined ? '' : String(value));
          }
          out.get(stored[d.ownerColumn] as string)?.[d.detail.name]?.push(line);
        }
      }
    }
  }
  return out;
}

/** GET `basePath + detail.path?id=`: the lines of one row the caller can read (the origin's query…ListByMainId). */
export function detailRoutes(rt: EntityRuntime, routes: FastifyInstance): void {
  for (const d of rt.details) {
    routes.get(detailPath(rt.entity, d.detail), routeOptions(rt, 'list', `The ${d.detail.name} of one ${rt.entity.name}`), async (request, reply) => {
      const owner = await rt.registered.findById(callerOf(request), requireId((request.query as Query).id));
      if (!owner) throw new AppError('notFound', 'crud.notFound');
      const lines = await linesOf(rt, [owner], request.lang);
      return reply.ok(lines.get(owner.id as string)?.[d.detail.name] ?? []);
    });
  }
}
