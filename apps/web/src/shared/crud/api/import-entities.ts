import { crudPath, type EntityDeclaration, type Envelope, type ImportReport } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

/** Uploads an xlsx file; the answer reports every data row (added or why it was refused). */
export async function importEntities(entity: EntityDeclaration, file: File): Promise<Envelope<ImportReport>> {
  const form = new FormData();
  form.append('file', file, file.name);
  const envelope = await http.post<ImportReport>(crudPath(entity, 'importExcel'), form, { timeout: 60_000 });
  unwrap(envelope);
  return envelope;
}

export function useImportEntities(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (file: File) => importEntities(entity, file), onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }) });
}
