import { request } from './http';

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

let statesCache: Promise<GeoState[]> | null = null;
const citiesCache = new Map<string, Promise<GeoCity[]>>();

/** GET /api/geo/states, sorted by name; [] when the service fails. Kept for the page's life once loaded. */
export function listStates(): Promise<GeoState[]> {
  if (!statesCache) {
    statesCache = request<GeoState[]>('api', '/geo/states', { auth: { kind: 'none' } }).then((res) => {
      if (!res.ok || !Array.isArray(res.data)) {
        statesCache = null;
        return [];
      }
      return res.data
        .filter((s) => s && typeof s.sigla === 'string' && typeof s.nome === 'string')
        .map((s) => ({ id: s.id, sigla: s.sigla, nome: s.nome }))
        .sort(byName);
    });
  }
  return statesCache;
}

/** GET /api/geo/states/{uf}/cities, sorted by name; [] when the service fails. */
export function listCities(uf: string): Promise<GeoCity[]> {
  const key = uf.toUpperCase();
  let cached = citiesCache.get(key);
  if (!cached) {
    cached = request<GeoCity[]>('api', `/geo/states/${encodeURIComponent(key)}/cities`, { auth: { kind: 'none' } }).then(
      (res) => {
        if (!res.ok || !Array.isArray(res.data)) {
          citiesCache.delete(key);
          return [];
        }
        return res.data
          .filter((c) => c && typeof c.nome === 'string')
          .map((c) => ({ id: c.id, nome: c.nome }))
          .sort(byName);
      },
    );
    citiesCache.set(key, cached);
  }
  return cached;
}

/** Forgets what was loaded (tests). */
export function resetGeoCache(): void {
  statesCache = null;
  citiesCache.clear();
}
