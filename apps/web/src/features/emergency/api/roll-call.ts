import { EmergencyPath, type Envelope, type RollCallBody, type RollCallEntry } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { musterKey } from './emergency.ts';

/** POST /emergency/rollCall (device:emergency:rollCall): marks a person safe, or takes the mark back. Refusals are shown in the alarm, which covers the console's notices. */
export function markSafe(body: RollCallBody): Promise<Envelope<RollCallEntry>> {
  return http.post<RollCallEntry>(EmergencyPath.rollCall, body, { silent: true });
}

export function useMarkSafe() {
  const client = useQueryClient();
  return useMutation({ mutationFn: markSafe, onSuccess: () => client.invalidateQueries({ queryKey: musterKey }) });
}
