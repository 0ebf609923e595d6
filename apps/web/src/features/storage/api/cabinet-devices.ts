import { StoragePath, type CabinetDeviceOption } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export type CabinetDevice = CabinetDeviceOption;

export async function getCabinetDevices(): Promise<CabinetDevice[]> {
  return unwrap(await http.get<CabinetDevice[]>(StoragePath.interfaceTestDevices));
}

export const cabinetDevicesQuery = () => queryOptions({ queryKey: ['storage', 'cabinetDevices'], queryFn: getCabinetDevices, staleTime: 30_000 });

/** GET /cabinet/interfaceTest/devices: the cabinet devices of the caller's tenant, by name, for the interface test. */
export function useCabinetDevices() {
  return useQuery(cabinetDevicesQuery());
}
