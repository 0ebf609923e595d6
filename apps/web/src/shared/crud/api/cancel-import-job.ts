import { importJobPath, type EntityDeclaration, type ImportJob } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';

/** Stops an import after the row under way; answers the ended job (the rows already stored stay). */
export async function cancelImportJob(entity: EntityDeclaration, jobId: string): Promise<ImportJob> {
  return unwrap(await http.put<ImportJob>(importJobPath(entity, 'cancel'), { jobId }));
}

export function useCancelImportJob(entity: EntityDeclaration) {
  return useMutation({ mutationFn: (jobId: string) => cancelImportJob(entity, jobId) });
}
