import { MAX_PAGE_SIZE, crudPath, type EntityDeclaration, type LinkOption, type Page } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';

/** The form's picker of one field: `owner` is the entity whose form it is, `field` the field picked for. */
export interface LinkPicker {
  owner: EntityDeclaration;
  field: string;
}

/**
 * The choices of a link or entitySelect field of a form, through the owner's GET …/linkOptions: allowed to those who
 * may add or edit the owner's rows though they may not read the linked list (a device administrator picks users).
 */
export async function getLinkOptions({ owner, field }: LinkPicker): Promise<LinkOption[]> {
  return unwrap(await http.get<Page<LinkOption>>(crudPath(owner, 'linkOptions'), { field, pageNo: 1, pageSize: MAX_PAGE_SIZE })).records;
}

/** Kept under the linked entity's key: a change to its rows (a user added) invalidates the choices too. */
export const linkOptionsQuery = (picker: LinkPicker | undefined, linkedEntity: string) =>
  queryOptions({
    queryKey: ['crud', linkedEntity, 'linkOptions', picker?.owner.name ?? '', picker?.field ?? ''],
    queryFn: () => (picker ? getLinkOptions(picker) : Promise.resolve([])),
    enabled: Boolean(picker),
    staleTime: 60_000,
  });

/** The choices of a form's picker; none (and no request) without a picker. */
export function useLinkOptions(picker: LinkPicker | undefined, linkedEntity: string) {
  return useQuery(linkOptionsQuery(picker, linkedEntity));
}
