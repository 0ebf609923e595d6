import { MAX_PAGE_SIZE, crudPath, deviceEntity, type Page } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export interface CabinetDevice {
  id: string;
  deviceName: string;
  sn?: string;
  online?: number;
}

export async function getCabinetDevices(): Promise<CabinetDevice[]> {
  const params = { systemType: 'storage', pageNo: 1, pageSize: MAX_PAGE_SIZE, column: 'deviceName', order: 'asc' };
  return unwrap(await http.get<Page<CabinetDevice>>(crudPath(deviceEntity, 'list'), params)).records;
}

export const cabinetDevicesQuery = () => queryOptions({ queryKey: ['storage', 'cabinetDevices'], queryFn: getCabinetDevices, staleTime: 30_000 });

/** GET /sysDevice/list?systemType=storage: the cabinet devices of the caller's tenant, by name. */
export function useCabinetDevices() {
  return useQuery(cabinetDevicesQuery());
}
