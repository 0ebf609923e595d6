import { SoftUpdatePath, softUpdateEntity, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { crudKeys } from '../../../shared/crud/index.ts';

export interface SoftUpdateUpload {
  version: string;
  deviceModel?: string;
  updateLog?: string;
  file: File;
}

export interface UploadedPackage {
  id: string;
  fileName: string;
  fileSize: number;
  checksum: string;
}

/** A package of up to 200 MB may take a while to send. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * POST /sysSoftUpdate/upload: the fields first, then the package, as the server reads them. A refusal (not a package,
 * a version already there) comes back as the envelope, in the reader's language, for the form to show.
 */
export function uploadSoftUpdate({ version, deviceModel, updateLog, file }: SoftUpdateUpload): Promise<Envelope<UploadedPackage>> {
  const form = new FormData();
  form.append('version', version);
  if (deviceModel) form.append('deviceModel', deviceModel);
  if (updateLog) form.append('updateLog', updateLog);
  form.append('file', file, file.name);
  return http.post<UploadedPackage>(SoftUpdatePath.upload, form, { timeout: UPLOAD_TIMEOUT_MS });
}

export function useUploadSoftUpdate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: uploadSoftUpdate,
    onSuccess: (envelope) => (envelope.success ? client.invalidateQueries({ queryKey: crudKeys.all(softUpdateEntity) }) : undefined),
  });
}
