import { EmergencyPath, type EmergencyRelease, type EmergencyScenario, type EmergencyState, type Envelope, type MusterArea } from '@isps/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export const emergencyKey = ['emergency', 'current'] as const;

/** GET /emergency/current: the scenario running for the user's tenant, read at start and whenever the socket reopens. */
export async function getEmergency(): Promise<EmergencyState> {
  return unwrap(await http.get<EmergencyState>(EmergencyPath.current, undefined, { silent: true }));
}

export const emergencyQuery = () => queryOptions({ queryKey: emergencyKey, queryFn: getEmergency, staleTime: Infinity });

export function useEmergency() {
  return useQuery(emergencyQuery());
}

/** GET /emergency/muster: who is inside, per area; read again every few seconds while the alarm shows. */
export async function getMuster(): Promise<MusterArea[]> {
  return unwrap(await http.get<MusterArea[]>(EmergencyPath.muster, undefined, { silent: true }));
}

export const MUSTER_REFRESH_MS = 5000;

export const musterKey = ['emergency', 'muster'] as const;

export function useMuster(enabled: boolean) {
  return useQuery({ queryKey: musterKey, queryFn: getMuster, enabled, refetchInterval: enabled ? MUSTER_REFRESH_MS : false });
}

/** POST /emergency/end (device:emergency:end). */
export function endEmergency(id: string): Promise<Envelope<EmergencyScenario>> {
  return http.post<EmergencyScenario>(EmergencyPath.end, { id });
}

export function useEndEmergency() {
  return useMutation({ mutationFn: endEmergency });
}

/** GET /emergency/releases: the egress doors, lockers and keys the scenario released, and each device's state with it. */
export async function getReleases(): Promise<EmergencyRelease[]> {
  return unwrap(await http.get<EmergencyRelease[]>(EmergencyPath.releases, undefined, { silent: true }));
}

export const releasesKey = ['emergency', 'releases'] as const;

/** Read again every few seconds while the alarm shows, as the muster list is: devices acknowledge one by one. */
export function useReleases(enabled: boolean) {
  return useQuery({ queryKey: releasesKey, queryFn: getReleases, enabled, refetchInterval: enabled ? MUSTER_REFRESH_MS : false });
}
