import { VisitorDeskPath, type DeskLookup, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../../shared/api/index.ts';

/** GET /vistor/desk/find: the visitor with this ID number and his visits of today; 'no visitor' is a refusal envelope. */
export function findDeskVisitor(idCard: string): Promise<Envelope<DeskLookup>> {
  return http.get<DeskLookup>(VisitorDeskPath.find, { idCard });
}

export function useFindDeskVisitor() {
  return useMutation({ mutationFn: findDeskVisitor });
}
