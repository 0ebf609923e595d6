import { crudPath, type EntityDeclaration, type Envelope, type ImportReport } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';
import { crudKeys } from './keys.ts';

/**
 * Uploads an xlsx file; the answer reports every data row (added or why it was refused). `initial` holds the values
 * of write-only fields (passwords) for rows without one; they go before the file, where the server reads them.
 */
export async function importEntities(entity: EntityDeclaration, file: File, initial: Record<string, string> = {}): Promise<Envelope<ImportReport>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(initial)) form.append(name, value);
  form.append('file', file, file.name);
  const envelope = await http.post<ImportReport>(crudPath(entity, 'importExcel'), form, { timeout: 60_000 });
  unwrap(envelope);
  return envelope;
}

export function useImportEntities(entity: EntityDeclaration) {
  const client = useQueryClient();
  return useMutation({ mutationFn: ({ file, initial }: { file: File; initial?: Record<string, string> }) => importEntities(entity, file, initial), onSuccess: () => client.invalidateQueries({ queryKey: crudKeys.all(entity) }) });
}
