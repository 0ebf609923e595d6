import { EmergencyPath, type EmergencyReport, type EmergencyScenario, type Page } from '@isps/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export const reportsKey = ['emergency', 'reports'] as const;

/** GET /emergency/list (device:emergency:view): the past and running emergencies, newest first. */
export async function getEmergencies(pageNo: number, pageSize: number): Promise<Page<EmergencyScenario>> {
  return unwrap(await http.get<Page<EmergencyScenario>>(EmergencyPath.list, { pageNo, pageSize }));
}

export function useEmergencies(pageNo: number, pageSize: number) {
  return useQuery({ queryKey: [...reportsKey, pageNo, pageSize], queryFn: () => getEmergencies(pageNo, pageSize), placeholderData: keepPreviousData });
}

/** GET /emergency/queryById: one emergency's report (start, end, doors, roll call). */
export async function getReport(id: string): Promise<EmergencyReport> {
  return unwrap(await http.get<EmergencyReport>(EmergencyPath.queryById, { id }));
}

export function useReport(id: string | null) {
  return useQuery({ queryKey: [...reportsKey, 'report', id], queryFn: () => getReport(id!), enabled: id !== null });
}
