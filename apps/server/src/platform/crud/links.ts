import { randomUUID } from 'node:crypto';
import { seededTextColumns, type EntityDeclaration, type Language } from '@isps/contract';
import { showSeededRows } from '../seeded-texts.ts';
import { rowsOf, tableOf } from './tables.ts';
import { nowIso, type AnyDb, type CrudContext, type EntityRuntime, type LinkField, type Row } from './runtime.ts';
import { linkIds, readableFields } from './values.ts';

/**
 * An imported link cell names its rows the way the export shows them (labels joined by commas) or by id: each
 * name the caller can see becomes its id; an unknown one stays and is refused by `checkReferences`.
 */
export async function linkIdsOfLabels(rt: EntityRuntime, ctx: CrudContext, values: Row): Promise<void> {
  for (const { name, link } of rt.links) {
    const cell = values[name];
    const target = rt.app.crudEntities.get(tableOf(link.entity));
    if (typeof cell !== 'string' || cell === '' || !target) continue;
    const labelColumn = readableFields(target.declaration).get(target.declaration.labelField)?.column ?? 'id';
    // commas, full-width and ideographic; escaped, as the server build must stay ASCII (see scripts/build-server.mjs)
    const tokens = cell.split(/\s*[,\uFF0C\u3001]\s*/).filter(Boolean);
    const found = await target
      .scoped(ctx.caller)
      .clearSelect()
      .select(['id', `${labelColumn} as label`])
      .where((eb) => eb.or([eb('id', 'in', tokens), eb(labelColumn, 'in', tokens)]))
      .execute();
    values[name] = tokens.map((token) => (found.find((r) => r.id === token) ?? found.find((r) => r.label === token))?.id ?? token).join(',');
  }
}

/** One stored link: `ownerId`'s row names `targetId`'s, written by `by`. */
export function linkRow(rt: EntityRuntime, link: LinkField['link'], ownerId: string, targetId: string, by: string): Row {
  return { id: randomUUID(), [link.ownerColumn]: ownerId, [link.targetColumn]: targetId, create_by: by, create_time: nowIso(rt.app), update_by: null, update_time: null };
}

/**
 * The link's rows whose target is a row of the target entity: one sharing its table with another (a device role and a
 * key role) links through the same link table, and a field of one never reads or replaces the other's links.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function toTargetRows<Q extends { where: (...args: any[]) => Q }>(db: AnyDb, link: LinkField['link'], query: Q, column: string = link.targetColumn): Q {
  const rows = rowsOf({ name: link.entity });
  if (!rows) return query;
  return query.where(column, 'in', db.selectFrom(tableOf(link.entity)).select('id').where(rows.column, 'in', [...rows.values]));
}

/** Replaces the links of one row for the link fields present in `values`. */
export async function writeLinks(rt: EntityRuntime, trx: AnyDb, ownerId: string, values: Row, by: string): Promise<void> {
  for (const { name, link } of rt.links) {
    if (!Object.hasOwn(values, name)) continue;
    await toTargetRows(trx, link, trx.deleteFrom(link.table).where(link.ownerColumn, '=', ownerId)).execute();
    for (const targetId of linkIds(values[name])) {
      await trx.insertInto(link.table).values(linkRow(rt, link, ownerId, targetId, by)).execute();
    }
  }
}

/** Removes the links of rows leaving the database: their own and those of other rows pointing at them. */
export async function removeLinks(rt: EntityRuntime, trx: AnyDb, ids: string[]): Promise<void> {
  for (const { link } of rt.links) await trx.deleteFrom(link.table).where(link.ownerColumn, 'in', ids).execute();
  for (const link of rt.inboundLinks) await trx.deleteFrom(link.table).where(link.targetColumn, 'in', ids).execute();
}

/** The labels of linked rows in `lang` by id: a seeded row's label (a seeded role's name) translated. */
async function shownLabels(rt: EntityRuntime, target: EntityDeclaration, labelColumn: string, ids: string[], lang: Language): Promise<Map<string, unknown>> {
  if (ids.length === 0 || seededTextColumns(target.name).length === 0) return new Map();
  const reading = rt.db.selectFrom(tableOf(target)).selectAll().where('id', 'in', ids);
  const rows = await rt.app.listCache.read(reading.compile(), () => reading.execute());
  return new Map((await showSeededRows(rt.app, target.name, rows as Row[], lang)).map((r) => [r.id as string, r[labelColumn]]));
}

/** Fills link fields: the linked ids joined by commas and `<field>_dictText` with their labels in `lang`. */
export async function withLinks(rt: EntityRuntime, api: Row[], lang: Language): Promise<void> {
  const { app, db, links } = rt;
  if (links.length === 0 || api.length === 0) return;
  const ids = api.map((r) => r.id as string);
  for (const { name, link } of links) {
    const target = app.crudEntities.get(tableOf(link.entity));
    const labelColumn = target ? (readableFields(target.declaration).get(target.declaration.labelField)?.column ?? 'id') : 'id';
    const reading = toTargetRows(
      db,
      link,
      db
        .selectFrom(`${link.table} as l`)
        .leftJoin(`${target ? tableOf(target.declaration) : link.table} as t`, 't.id', `l.${link.targetColumn}`)
        .select([`l.${link.ownerColumn} as owner`, `l.${link.targetColumn} as target`, `t.${labelColumn} as label`])
        .where(`l.${link.ownerColumn}`, 'in', ids),
      `l.${link.targetColumn}`,
    ).orderBy(`t.${labelColumn}`);
    const pairs = await app.listCache.read(reading.compile(), () => reading.execute());
    const shown = target ? await shownLabels(rt, target.declaration, labelColumn, [...new Set(pairs.map((p) => p.target as string))], lang) : new Map<string, unknown>();
    for (const row of api) {
      const mine = pairs.filter((p) => p.owner === row.id);
      row[name] = mine.map((p) => p.target).join(',');
      row[`${name}_dictText`] = mine.map((p) => shown.get(p.target as string) ?? p.label ?? p.target).join(', ');
    }
  }
}
