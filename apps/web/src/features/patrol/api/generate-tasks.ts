import { PatrolPath } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** POST /watch/task/generate: makes today's patrol tasks of the tenant now; answers how many are new. */
export async function generateTasks(): Promise<{ created: number }> {
  return unwrap(await http.post<{ created: number }>(PatrolPath.generateTasks, {}));
}

export function useGenerateTasks() {
  return useMutation({ mutationFn: generateTasks });
}
