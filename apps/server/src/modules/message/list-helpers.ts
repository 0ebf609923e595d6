import { sql, type Expression, type SqlBool } from 'kysely';

/** Case-insensitive "contains" with '!' as the LIKE escape, the same on all three engines. */
export function contains(column: string, text: string): Expression<SqlBool> {
  const escaped = text.replace(/[!%_]/g, (c) => `!${c}`).toLowerCase();
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '!'`;
}

export function pageOf<T>(records: T[], total: number, pageNo: number, pageSize: number) {
  return { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}
