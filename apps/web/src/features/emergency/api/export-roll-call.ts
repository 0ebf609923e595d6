import { EmergencyPath } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { saveBlob } from '../../../shared/crud/index.ts';

/** GET /emergency/exportXls: the roll call of one emergency as xlsx, saved under the server's file name. */
export async function exportRollCall(id: string): Promise<void> {
  const { blob, fileName } = await http.download(EmergencyPath.exportXls, { id });
  saveBlob(blob, fileName ?? 'roll-call.xlsx');
}

export function useExportRollCall() {
  return useMutation({ mutationFn: exportRollCall });
}
