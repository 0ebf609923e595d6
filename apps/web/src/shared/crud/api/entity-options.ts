import { MAX_PAGE_SIZE, crudPath, type EntityDeclaration, type Page } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import type { CrudRow } from '../entity-fields.ts';

export interface EntityOption {
  value: string;
  label: string;
}

export async function getEntityOptions(entity: EntityDeclaration, labelField: string, valueField = 'id'): Promise<EntityOption[]> {
  const page = unwrap(await http.get<Page<CrudRow>>(crudPath(entity, 'list'), { pageNo: 1, pageSize: MAX_PAGE_SIZE, column: labelField, order: 'asc' }));
  return page.records.map((row) => ({ value: String(row[valueField] ?? row.id), label: String(row[labelField] ?? row.id) }));
}

export const entityOptionsQuery = (entity: EntityDeclaration | undefined, labelField: string, valueField = 'id') =>
  queryOptions({
    queryKey: ['crud', entity?.name ?? '', 'options', labelField, valueField],
    queryFn: () => (entity ? getEntityOptions(entity, labelField, valueField) : Promise.resolve([])),
    enabled: Boolean(entity),
    staleTime: 60_000,
  });

/** Rows of another entity to pick from (value its id or `valueField`, label its `labelField`); none for an unregistered entity. */
export function useEntityOptions(entity: EntityDeclaration | undefined, labelField: string, valueField?: string) {
  return useQuery(entityOptionsQuery(entity, labelField, valueField));
}
