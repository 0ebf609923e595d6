import { crudPath, type EntityDeclaration, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

export async function restoreEntities(entity: EntityDeclaration, ids: readonly string[]): Promise<Envelope<unknown>> {
  const envelope = await http.put<unknown>(crudPath(entity, 'putRecycleBin'), { ids: ids.join(',') });
  unwrap(envelope);
  return envelope;
}

export function useRestoreEntities(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (ids: readonly string[]) => restoreEntities(entity, ids), onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }) });
}
