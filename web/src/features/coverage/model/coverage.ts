import { formatCNPJ } from '@/lib/format';
import type { CoverageChange, CoverageEntry, CoverageResale } from '../api/coverage';

/** Brazil's regions, with their UFs, in the order the screen groups the checkboxes. */
export const REGIONS: readonly { name: string; states: readonly string[] }[] = [
  { name: 'Norte', states: ['AC', 'AM', 'AP', 'PA', 'RO', 'RR', 'TO'] },
  { name: 'Nordeste', states: ['AL', 'BA', 'CE', 'MA', 'PB', 'PE', 'PI', 'RN', 'SE'] },
  { name: 'Centro-Oeste', states: ['DF', 'GO', 'MS', 'MT'] },
  { name: 'Sudeste', states: ['ES', 'MG', 'RJ', 'SP'] },
  { name: 'Sul', states: ['PR', 'RS', 'SC'] },
];

/** Adds or removes a UF, keeping the list sorted. */
export function toggleState(states: readonly string[], uf: string): string[] {
  const next = states.includes(uf) ? states.filter((s) => s !== uf) : [...states, uf];
  return next.sort();
}

/** Selects or clears every UF of a region. */
export function toggleRegion(states: readonly string[], region: readonly string[]): string[] {
  const all = region.every((uf) => states.includes(uf));
  const next = all ? states.filter((s) => !region.includes(s)) : [...new Set([...states, ...region])];
  return next.sort();
}

/** How a coverage reads in the list: 'Nenhuma UF' when it covers none. */
export function statesLabel(states: readonly string[]): string {
  if (states.length === 0) return 'Nenhuma UF';
  if (states.length === 27) return 'Todas as UFs';
  return states.join(', ');
}

/** A reseller account's label: its name and CNPJ, or its id when it is no longer an approved reseller. */
export function resaleLabel(r: CoverageResale): string {
  if (!r.name) return `Revenda ${r.id.slice(0, 8)} (não aprovada)`;
  return r.cnpj ? `${r.name} (${formatCNPJ(r.cnpj)})` : r.name;
}

/** Whether an edit changed anything (the Salvar button's state). */
export function changed(entry: CoverageEntry, states: readonly string[], resaleIds: readonly string[]): boolean {
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);
  return !same(entry.states, states) || !same(entry.resales.map((r) => r.id), resaleIds);
}

/** One change of the history as a sentence: 'UFs: SP, RJ → SP' or 'Revendas: …'. */
export function describeChange(c: CoverageChange, resaleName: (id: string) => string): string {
  const list = (v: string, map: (s: string) => string) => (v === '' ? 'nenhuma' : v.split(',').map(map).join(', '));
  if (c.attribute === 'coverageStates') return `UFs: ${list(c.oldValue, (s) => s)} → ${list(c.newValue, (s) => s)}`;
  if (c.attribute === 'coverageResales') return `Revendas: ${list(c.oldValue, resaleName)} → ${list(c.newValue, resaleName)}`;
  return `${c.attribute}: ${c.oldValue} → ${c.newValue}`;
}
