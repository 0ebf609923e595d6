import { crudPath, type EntityDeclaration, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

export async function deleteEntityBatch(entity: EntityDeclaration, ids: readonly string[]): Promise<Envelope<{ count: number }>> {
  const envelope = await http.delete<{ count: number }>(crudPath(entity, 'deleteBatch'), { ids: ids.join(',') });
  unwrap(envelope);
  return envelope;
}

export function useDeleteEntityBatch(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly string[]) => deleteEntityBatch(entity, ids),
    onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }),
  });
}
