import { crudPath, type EntityDeclaration, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

/** Removes rows of the recycle bin for good. */
export async function deleteCompletely(entity: EntityDeclaration, ids: readonly string[]): Promise<Envelope<unknown>> {
  const envelope = await http.delete<unknown>(crudPath(entity, 'deleteRecycleBin'), { ids: ids.join(',') });
  unwrap(envelope);
  return envelope;
}

export function useDeleteCompletely(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (ids: readonly string[]) => deleteCompletely(entity, ids), onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }) });
}
