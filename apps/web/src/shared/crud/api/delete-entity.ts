import { crudPath, type EntityDeclaration, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

export async function deleteEntity(entity: EntityDeclaration, id: string): Promise<Envelope<unknown>> {
  const envelope = await http.delete<unknown>(crudPath(entity, 'delete'), { id });
  unwrap(envelope);
  return envelope;
}

export function useDeleteEntity(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => deleteEntity(entity, id), onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }) });
}
