import { ApiPath, type DashboardSummary } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function getDashboardSummary(): Promise<DashboardSummary> {
  return unwrap(await http.get<DashboardSummary>(ApiPath.dashboardSummary));
}

export const dashboardSummaryQuery = () =>
  queryOptions({ queryKey: ['dashboard-summary'], queryFn: getDashboardSummary, refetchInterval: 60_000 });

/** `enabled`: the reader's permissions cover at least one of its figures. */
export function useDashboardSummary(enabled = true) {
  return useQuery({ ...dashboardSummaryQuery(), enabled });
}
