import { VisitorDeskPath, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../../shared/api/index.ts';

/** GET /vistor/desk/readIdCard: the ID card number on the capture device; 'No ID card detected' is a refusal envelope. */
export function readDeskIdCard(): Promise<Envelope<{ idCard: string }>> {
  return http.get<{ idCard: string }>(VisitorDeskPath.readIdCard);
}

export function useReadDeskIdCard() {
  return useMutation({ mutationFn: readDeskIdCard });
}
