import { crudPath, type EntityDeclaration } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import type { CrudRow } from '../entity-fields.ts';
import { crudKeys } from './keys.ts';

export async function queryEntityById(entity: EntityDeclaration, id: string): Promise<CrudRow> {
  return unwrap(await http.get<CrudRow>(crudPath(entity, 'queryById'), { id }));
}

export const entityByIdQuery = (entity: EntityDeclaration, id: string | null) =>
  queryOptions({ queryKey: crudKeys.byId(entity, id ?? ''), queryFn: () => queryEntityById(entity, id ?? ''), enabled: Boolean(id) });

/** The stored row, fresh from the server (detail view, edit form). */
export function useEntityById(entity: EntityDeclaration, id: string | null) {
  return useQuery(entityByIdQuery(entity, id));
}
