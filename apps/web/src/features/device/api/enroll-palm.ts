import { ENROLL_POLL_MS, EnrollmentStatus, PeoplePath, type Enrollment, type Envelope, type PalmHand } from '@isps/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** POST /sysPeople/enroll: asks the capture device to enroll one palm; a refusal (no or offline device) is the envelope's message. */
export function startEnrollment(body: { id: string; hand: PalmHand; deviceId?: string }): Promise<Envelope<Enrollment>> {
  return http.post<Enrollment>(PeoplePath.enroll, body);
}

export function useStartEnrollment() {
  return useMutation({ mutationFn: startEnrollment });
}

/** POST /sysPeople/enrollCancel: ends a waiting enrollment. */
export async function cancelEnrollment(id: string): Promise<Enrollment> {
  return unwrap(await http.post<Enrollment>(PeoplePath.enrollCancel, { id }));
}

export function useCancelEnrollment() {
  return useMutation({ mutationFn: cancelEnrollment });
}

export async function getEnrollment(id: string): Promise<Enrollment> {
  return unwrap(await http.get<Enrollment>(PeoplePath.enrollStatus, { id }, { silent: true }));
}

export const enrollmentQuery = (id: string | null) =>
  queryOptions({
    queryKey: ['device', 'enrollment', id],
    queryFn: () => getEnrollment(id as string),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && query.state.data.status !== EnrollmentStatus.waiting ? false : ENROLL_POLL_MS),
  });

/** GET /sysPeople/enrollStatus: how an enrollment goes, asked every second while it waits for the device. */
export function useEnrollment(id: string | null) {
  return useQuery(enrollmentQuery(id));
}
