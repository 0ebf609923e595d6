import { crudPath, type EntityDeclaration, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

/** Saves an edited row (`values.id` names it); refusals are shown by the form, so the call stays silent. */
export async function editEntity(entity: EntityDeclaration, values: Record<string, unknown>): Promise<Envelope<{ id: string }>> {
  const envelope = await http.put<{ id: string }>(crudPath(entity, 'edit'), values, { silent: true });
  unwrap(envelope);
  return envelope;
}

export function useEditEntity(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, unknown>) => editEntity(entity, values),
    onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }),
  });
}
