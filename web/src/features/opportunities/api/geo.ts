import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/http';
import { queryKeys } from '@/lib/queryClient';

/** Public geography service (spec §7): Brazil's states and their cities. */

export interface GeoState {
  id: number;
  /** UF, e.g. 'MG'. */
  sigla: string;
  nome: string;
}

export interface GeoCity {
  id: number;
  nome: string;
}

const byName = (a: { nome: string }, b: { nome: string }) => a.nome.localeCompare(b.nome, 'pt-BR');

/** GET /api/geo/states, sorted by name; throws when the service fails (a failure is not cached). */
export async function listStates(signal?: AbortSignal): Promise<GeoState[]> {
  const res = await request<GeoState[]>('api', '/geo/states', { auth: { kind: 'none' }, signal });
  if (!res.ok || !Array.isArray(res.data)) throw new Error('geo: states');
  return res.data
    .filter((s) => s && typeof s.sigla === 'string' && typeof s.nome === 'string')
    .map((s) => ({ id: s.id, sigla: s.sigla, nome: s.nome }))
    .sort(byName);
}

/** GET /api/geo/states/{uf}/cities, sorted by name; throws when the service fails. */
export async function listCities(uf: string, signal?: AbortSignal): Promise<GeoCity[]> {
  const key = uf.toUpperCase();
  const res = await request<GeoCity[]>('api', `/geo/states/${encodeURIComponent(key)}/cities`, {
    auth: { kind: 'none' },
    signal,
  });
  if (!res.ok || !Array.isArray(res.data)) throw new Error('geo: cities');
  return res.data
    .filter((c) => c && typeof c.nome === 'string')
    .map((c) => ({ id: c.id, nome: c.nome }))
    .sort(byName);
}

/** Geography does not change while the app runs: once loaded it is never asked again. */
const GEO_OPTIONS = { staleTime: Infinity, gcTime: Infinity, refetchOnWindowFocus: false } as const;

/** The states (empty while loading); `failed` when the service did not answer. */
export function useStates(): { states: GeoState[]; failed: boolean } {
  const q = useQuery({ queryKey: queryKeys.geoStates(), queryFn: ({ signal }) => listStates(signal), ...GEO_OPTIONS });
  return { states: q.data ?? [], failed: q.isError };
}

/** The cities of a state ('' = none chosen: nothing is asked). */
export function useCities(uf: string): { cities: GeoCity[]; failed: boolean } {
  const q = useQuery({
    queryKey: queryKeys.geoCities(uf),
    queryFn: ({ signal }) => listCities(uf, signal),
    enabled: uf !== '',
    ...GEO_OPTIONS,
  });
  return { cities: uf ? (q.data ?? []) : [], failed: uf !== '' && q.isError };
}
