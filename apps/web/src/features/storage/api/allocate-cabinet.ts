import { StoragePath, cabinetEntity, type AllocateCabinetBody, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { crudKeys } from '../../../shared/crud/index.ts';
import { cabinetTreeKey } from './cabinet-tree.ts';

/** POST /cabinet/cabinet/allocateCabinet: the cabinet goes to these people; a refusal comes back as `success: false` with the reason. */
export function allocateCabinet(body: AllocateCabinetBody): Promise<Envelope<null>> {
  return http.post<null>(StoragePath.allocateCabinet, body);
}

/** Allocates a cabinet; once done, the cabinet lists and the cabinet tree are read again. */
export function useAllocateCabinet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: allocateCabinet,
    onSuccess: (envelope) => {
      if (!envelope.success) return;
      void client.invalidateQueries({ queryKey: crudKeys.all(cabinetEntity) });
      void client.invalidateQueries({ queryKey: cabinetTreeKey });
    },
  });
}
