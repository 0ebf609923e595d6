import { crudPath, type EntityDeclaration, type Page } from '@isps/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import type { CrudRow } from '../entity-fields.ts';
import type { ListParams } from '../query-params.ts';
import { crudKeys } from './keys.ts';

export async function listRecycleBin(entity: EntityDeclaration, params: ListParams): Promise<Page<CrudRow>> {
  return unwrap(await http.get<Page<CrudRow>>(crudPath(entity, 'recycleBin'), params));
}

export const recycleBinQuery = (entity: EntityDeclaration, params: ListParams, enabled: boolean) =>
  queryOptions({ queryKey: crudKeys.recycleBin(entity, params), queryFn: () => listRecycleBin(entity, params), enabled, placeholderData: keepPreviousData });

/** Deleted rows that can still be restored. */
export function useRecycleBin(entity: EntityDeclaration, params: ListParams, enabled: boolean) {
  return useQuery(recycleBinQuery(entity, params, enabled));
}
