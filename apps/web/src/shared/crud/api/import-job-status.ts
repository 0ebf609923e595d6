import { ImportJobState, importJobPath, type EntityDeclaration, type ImportJob } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

/** Where an import job stands: counts while it runs, every row's outcome once it ended. */
export async function importJobStatus(entity: EntityDeclaration, jobId: string): Promise<ImportJob> {
  return unwrap(await http.get<ImportJob>(importJobPath(entity, 'status'), { jobId }));
}

/** While the job runs it is asked again every two seconds; the real-time channel pushes its counts in between. */
export const importJobQuery = (entity: EntityDeclaration, jobId: string) =>
  queryOptions({
    queryKey: [...crudKeys.all(entity), 'importJob', jobId] as const,
    queryFn: () => importJobStatus(entity, jobId),
    refetchInterval: (query) => (query.state.data?.state === ImportJobState.running || !query.state.data ? 2000 : false),
  });

export function useImportJob(entity: EntityDeclaration, jobId: string) {
  return useQuery(importJobQuery(entity, jobId));
}
