import { DoorPath, EmergencyPath, type DoorStatusRow, type EmergencySetting, type Envelope } from '@isps/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export const emergencySettingKey = ['device', 'emergencySetting'] as const;

/** GET /emergency/setting (device:emergency:view): threshold and egress doors of the user's tenant. */
export async function getEmergencySetting(): Promise<EmergencySetting> {
  return unwrap(await http.get<EmergencySetting>(EmergencyPath.setting));
}

export const emergencySettingQuery = () => queryOptions({ queryKey: emergencySettingKey, queryFn: getEmergencySetting });

export function useEmergencySetting() {
  return useQuery(emergencySettingQuery());
}

/** PUT /emergency/setting (device:emergency:edit). */
export function saveEmergencySetting(setting: EmergencySetting): Promise<Envelope<EmergencySetting>> {
  return http.put<EmergencySetting>(EmergencyPath.setting, setting);
}

export function useSaveEmergencySetting() {
  return useMutation({ mutationFn: saveEmergencySetting });
}

/** The doors to choose egress doors among: the door status list names every door of the tenant. */
export function useDoorChoices() {
  return useQuery({ queryKey: ['device', 'doorChoices'], queryFn: async () => unwrap(await http.get<DoorStatusRow[]>(DoorPath.status)) });
}
