import { crudPath, type EntityDeclaration, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

/** Adds a row; the caller shows a refusal (validation, duplicate) inside its form, so the call stays silent. */
export async function addEntity(entity: EntityDeclaration, values: Record<string, unknown>): Promise<Envelope<{ id: string }>> {
  const envelope = await http.post<{ id: string }>(crudPath(entity, 'add'), values, { silent: true });
  unwrap(envelope);
  return envelope;
}

export function useAddEntity(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, unknown>) => addEntity(entity, values),
    onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }),
  });
}
