import { QueryClient } from '@tanstack/react-query';

/** One cache for the whole console; the request layer already notifies failures, so queries do not retry blindly. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
