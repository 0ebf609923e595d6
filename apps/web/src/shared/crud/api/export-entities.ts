import { crudPath, importJobPath, type EntityDeclaration } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../api/index.ts';
import type { ListParams } from '../query-params.ts';

/** Saves a blob under a file name through a temporary link (the browser's own download). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the rows matching the current filters as xlsx. */
export async function exportEntities(entity: EntityDeclaration, params: ListParams): Promise<string> {
  const { blob, fileName } = await http.download(crudPath(entity, 'exportXls'), params);
  const name = fileName ?? `${entity.name}.xlsx`;
  saveBlob(blob, name);
  return name;
}

export function useExportEntities(entity: EntityDeclaration) {
  return useMutation({ mutationFn: (params: ListParams) => exportEntities(entity, params) });
}

/** Downloads the refused rows of an import job as xlsx: their values as read and the reason of each. */
export async function downloadRefusedRows(entity: EntityDeclaration, jobId: string): Promise<string> {
  const { blob, fileName } = await http.download(importJobPath(entity, 'refused'), { jobId });
  const name = fileName ?? `${entity.name}-refused.xlsx`;
  saveBlob(blob, name);
  return name;
}
