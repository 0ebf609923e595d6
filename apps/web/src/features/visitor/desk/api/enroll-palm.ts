import { ENROLL_POLL_MS, EnrollmentStatus, VisitorDeskPath, type Enrollment, type Envelope, type PalmHand } from '@isps/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../../shared/api/index.ts';

/** POST /vistor/desk/enroll: asks the capture device to enrol one palm of the visitor; a refusal is the envelope's message. */
export function startDeskEnrollment(body: { id: string; hand: PalmHand }): Promise<Envelope<Enrollment>> {
  return http.post<Enrollment>(VisitorDeskPath.enroll, body);
}

export function useStartDeskEnrollment() {
  return useMutation({ mutationFn: startDeskEnrollment });
}

/** POST /vistor/desk/enrollCancel: ends a waiting enrollment. */
export async function cancelDeskEnrollment(id: string): Promise<Enrollment> {
  return unwrap(await http.post<Enrollment>(VisitorDeskPath.enrollCancel, { id }));
}

export function useCancelDeskEnrollment() {
  return useMutation({ mutationFn: cancelDeskEnrollment });
}

export const deskEnrollmentQuery = (id: string | null) =>
  queryOptions({
    queryKey: ['visitor', 'desk', 'enrollment', id],
    queryFn: async () => unwrap(await http.get<Enrollment>(VisitorDeskPath.enrollStatus, { id: id as string }, { silent: true })),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && query.state.data.status !== EnrollmentStatus.waiting ? false : ENROLL_POLL_MS),
  });

/** GET /vistor/desk/enrollStatus: how the enrollment goes, asked every second while it waits for the device. */
export function useDeskEnrollment(id: string | null) {
  return useQuery(deskEnrollmentQuery(id));
}
