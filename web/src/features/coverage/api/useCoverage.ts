import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getCompany } from '@/lib/http';
import { getCoverage, getCoverageHistory, putCoverage } from './coverage';

const coverageKey = (brand: string) => ['coverage', brand] as const;
const historyKey = (brand: string) => ['coverage', brand, 'history'] as const;

/** The brand's coverage, cached per brand. */
export function useCoverage() {
  const brand = getCompany();
  return useQuery({ queryKey: coverageKey(brand), queryFn: ({ signal }) => getCoverage(signal) });
}

/** The newest changes of the brand's coverage. */
export function useCoverageHistory() {
  const brand = getCompany();
  return useQuery({ queryKey: historyKey(brand), queryFn: ({ signal }) => getCoverageHistory(signal) });
}

/** Saves one representative's coverage; on success the coverage and its history are read again. */
export function useSaveCoverage() {
  const client = useQueryClient();
  const brand = getCompany();
  return useMutation({
    mutationFn: (v: { userId: string; states: string[]; resaleIds: string[] }) =>
      putCoverage(v.userId, { states: v.states, resaleIds: v.resaleIds }),
    onSuccess: (res) => {
      if (!res.ok) return;
      void client.invalidateQueries({ queryKey: coverageKey(brand) });
    },
  });
}
