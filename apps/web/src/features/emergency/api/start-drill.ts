import { EmergencyPath, type EmergencyScenario, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** POST /emergency/drill (device:emergency:drill): the scenario runs as for a quake, marked as a drill. */
export function startDrill(): Promise<Envelope<EmergencyScenario>> {
  return http.post<EmergencyScenario>(EmergencyPath.drill, {});
}

export function useStartDrill() {
  return useMutation({ mutationFn: startDrill });
}
