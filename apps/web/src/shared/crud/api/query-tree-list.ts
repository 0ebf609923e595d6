import { treePath, type EntityDeclaration, type TreeRow } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

export async function queryTreeList(entity: EntityDeclaration): Promise<TreeRow[]> {
  return unwrap(await http.get<TreeRow[]>(treePath(entity)));
}

export const treeListQuery = (entity: EntityDeclaration, enabled = true) =>
  queryOptions({ queryKey: crudKeys.tree(entity), queryFn: () => queryTreeList(entity), enabled: enabled && Boolean(entity.tree) });

/** The whole tree of a tree entity (rows nested under `children`). */
export function useTreeList(entity: EntityDeclaration, enabled = true) {
  return useQuery(treeListQuery(entity, enabled));
}
