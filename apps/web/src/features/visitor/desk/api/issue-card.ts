import { VisitorDeskPath, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../../shared/api/index.ts';

/** POST /vistor/desk/issueCard: writes the visitor's card number; only its masked form comes back. */
export function issueDeskCard(body: { visitorId: string; cardNo: string }): Promise<Envelope<{ cardNoMasked: string }>> {
  return http.post<{ cardNoMasked: string }>(VisitorDeskPath.issueCard, body);
}

export function useIssueDeskCard() {
  return useMutation({ mutationFn: issueDeskCard });
}
