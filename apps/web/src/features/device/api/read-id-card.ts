import { PeoplePath, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** GET /sysPeople/readIdCard: the ID card number on the capture device; 'No ID card detected' is a refusal envelope. */
export function readIdCard(): Promise<Envelope<{ idCard: string }>> {
  return http.get<{ idCard: string }>(PeoplePath.readIdCard);
}

export function useReadIdCard() {
  return useMutation({ mutationFn: readIdCard });
}
