import { crudPath, type EntityDeclaration, type Envelope, type ImportJob } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

/**
 * Uploads an xlsx file; once the server has checked it, the answer is the import job that adds its rows (follow it
 * with `useImportJob`). `initial` holds the values of write-only fields (passwords) for rows without one; they go
 * before the file, where the server reads them.
 */
export async function importEntities(entity: EntityDeclaration, file: File, initial: Record<string, string> = {}): Promise<Envelope<ImportJob>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(initial)) form.append(name, value);
  form.append('file', file, file.name);
  const envelope = await http.post<ImportJob>(crudPath(entity, 'importExcel'), form, { timeout: 60_000 });
  unwrap(envelope);
  return envelope;
}

export function useImportEntities(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({ mutationFn: ({ file, initial }: { file: File; initial?: Record<string, string> }) => importEntities(entity, file, initial), onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }) });
}
