import { crudPath, type EntityDeclaration, type Page } from '@isps/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import type { CrudRow } from '../entity-fields.ts';
import type { ListParams } from '../query-params.ts';
import { crudKeys } from './keys.ts';

export async function listEntity(entity: EntityDeclaration, params: ListParams): Promise<Page<CrudRow>> {
  return unwrap(await http.get<Page<CrudRow>>(crudPath(entity, 'list'), params));
}

export const entityListQuery = (entity: EntityDeclaration, params: ListParams, enabled = true) =>
  queryOptions({ queryKey: crudKeys.list(entity, params), queryFn: () => listEntity(entity, params), placeholderData: keepPreviousData, enabled });

/** One page of the entity's rows with the filters, order and advanced query of `params`. */
export function useEntityList(entity: EntityDeclaration, params: ListParams, enabled = true) {
  return useQuery(entityListQuery(entity, params, enabled));
}
