import { ApiPath, type DashboardDevices } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export const dashboardDevicesKey = ['dashboard-devices'] as const;

export async function getDashboardDevices(): Promise<DashboardDevices> {
  return unwrap(await http.get<DashboardDevices>(ApiPath.dashboardDevices));
}

/** Read again when the live link says something changed (the page does that), and every minute for the hourly counts. */
export const dashboardDevicesQuery = () => queryOptions({ queryKey: dashboardDevicesKey, queryFn: getDashboardDevices, refetchInterval: 60_000 });

/** `enabled`: the reader's permissions cover at least one of its figures. */
export function useDashboardDevices(enabled = true) {
  return useQuery({ ...dashboardDevicesQuery(), enabled });
}
