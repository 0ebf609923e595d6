import { ApiPath, type Envelope, type SelectDepartBody, type UserInfo } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

export function selectDepart(body: SelectDepartBody): Promise<Envelope<{ userInfo: UserInfo } | null>> {
  return http.post<{ userInfo: UserInfo } | null>(ApiPath.selectDepart, body);
}

export function useSelectDepart() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: selectDepart,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['current-user-departs'] }),
  });
}
