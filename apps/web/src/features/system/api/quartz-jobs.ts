import { QuartzJobPath, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export type JobCommand = 'pause' | 'resume' | 'execute';

/** Stops, starts or runs a scheduled job once; the envelope's message says how it went. */
export async function commandJob({ id, command }: { id: string; command: JobCommand }): Promise<Envelope<unknown>> {
  const envelope = await http.get<unknown>(QuartzJobPath[command], { id });
  unwrap(envelope);
  return envelope;
}

export function useCommandJob() {
  return useMutation({ mutationFn: commandJob });
}
