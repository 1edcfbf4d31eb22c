import { QueryClient } from '@tanstack/react-query';

/**
 * The one cache of server state (STYLE.md §3). Our transport never throws
 * (lib/http.ts answers every call with a status), so a query's data is the
 * HttpResponse itself and each hook reads its status; TanStack Query retries
 * nothing by itself (the transport already refreshes a 401 once). Queries are
 * cancelled through their AbortSignal when the screen that asked goes away or
 * asks for another key, and are asked again when the window regains focus.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: 15_000,
        refetchOnWindowFocus: true,
        refetchOnReconnect: true,
      },
      mutations: { retry: false },
    },
  });
}

/** Query keys: one function per server resource, so no key is spelled twice. */
export const queryKeys = {
  list: (query: string) => ['list', query] as const,
  opportunity: (id: string) => ['opportunity', id] as const,
  notifications: (userId: string) => ['notifications', userId] as const,
  geoStates: () => ['geo', 'states'] as const,
  geoCities: (uf: string) => ['geo', 'cities', uf.toUpperCase()] as const,
  dashboard: (brand: string) => ['dashboard', brand] as const,
};
