import { detailPath, type DetailDeclaration, type EntityDeclaration } from '@isps/contract';
import { queryOptions, useQueries } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import type { CrudRow } from '../entity-fields.ts';
import { crudKeys } from './keys.ts';

/** One row's lines of a detail (GET basePath + detail.path?id=), in their order. */
export async function queryDetailLines(entity: EntityDeclaration, detail: DetailDeclaration, id: string): Promise<CrudRow[]> {
  return unwrap(await http.get<CrudRow[]>(detailPath(entity, detail), { id }));
}

export const detailLinesQuery = (entity: EntityDeclaration, detail: DetailDeclaration, id: string | null) =>
  queryOptions({ queryKey: [...crudKeys.byId(entity, id ?? ''), 'lines', detail.name] as const, queryFn: () => queryDetailLines(entity, detail, id ?? ''), enabled: Boolean(id) });

/** The lines of every detail of one row (`null`: none to read), by detail name once all have come. */
export function useDetailLines(entity: EntityDeclaration, id: string | null) {
  const details = entity.details ?? [];
  return useQueries({
    queries: details.map((detail) => detailLinesQuery(entity, detail, id)),
    combine: (results) => ({
      data: results.every((r) => r.data) ? Object.fromEntries(details.map((d, i) => [d.name, results[i]!.data as CrudRow[]])) : undefined,
      isError: results.some((r) => r.isError),
      error: results.find((r) => r.error)?.error ?? null,
      isFetching: results.some((r) => r.isFetching),
    }),
  });
}
