import { keepsSeededText, seededTextColumns, withSeededTexts, type Language } from '@isps/contract';
import type { FastifyInstance } from 'fastify';

type Row = Record<string, unknown>;

/** A dictionary item is told by its dictionary's code, which its row does not hold. */
async function withIdentity(app: FastifyInstance, entity: string, rows: Row[]): Promise<Row[]> {
  if (entity !== 'dictItem' || rows.length === 0) return rows;
  const ids = [...new Set(rows.map((r) => String(r.dict_id)))];
  const dicts = await app.db.selectFrom('sys_dict').select(['id', 'dict_code']).where('id', 'in', ids).execute();
  const codeOf = new Map(dicts.map((d) => [d.id, d.dict_code]));
  return rows.map((r) => ({ ...r, dict_code: codeOf.get(String(r.dict_id)) }));
}

/**
 * Rows of the named entity (columns as stored) with their seeded texts in the reader's language: the one place every answer
 * showing seeded rows goes through (lists, single rows, exports, options).
 */
export async function showSeededRows<R extends Row>(app: FastifyInstance, entity: string, rows: R[], lang: Language): Promise<R[]> {
  if (seededTextColumns(entity).length === 0) return rows;
  const identified = await withIdentity(app, entity, rows);
  return rows.map((row, index) => {
    const shown = withSeededTexts(lang, entity, identified[index] as Row);
    if (shown === identified[index]) return row;
    const copy = { ...row };
    for (const column of seededTextColumns(entity)) (copy as Row)[column] = shown[column];
    return copy;
  });
}

/**
 * The columns of an edit that only save back a seeded text as it was shown (in any language): they are left out,
 * so the row keeps its seeded form and every reader still reads it in his own language.
 */
export async function unchangedSeededColumns(app: FastifyInstance, entity: string, existing: Row, columns: Row): Promise<string[]> {
  const seeded = seededTextColumns(entity).filter((c) => Object.hasOwn(columns, c));
  if (seeded.length === 0) return [];
  const [row] = await withIdentity(app, entity, [existing]);
  return seeded.filter((c) => keepsSeededText(entity, c, row as Row, columns[c]));
}
