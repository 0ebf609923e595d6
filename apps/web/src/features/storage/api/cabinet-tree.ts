import { StoragePath, type CabinetTreeNode } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function getCabinetTree(): Promise<CabinetTreeNode[]> {
  return unwrap(await http.get<CabinetTreeNode[]>(StoragePath.queryCabinetTree));
}

export const cabinetTreeKey = ['storage', 'cabinetTree'] as const;

export const cabinetTreeQuery = () => queryOptions({ queryKey: cabinetTreeKey, queryFn: getCabinetTree });

/** GET /cabinet/cabinet/queryCabinetTree: the caller's areas, their cabinet devices and each device's cabinets. */
export function useCabinetTree() {
  return useQuery(cabinetTreeQuery());
}
