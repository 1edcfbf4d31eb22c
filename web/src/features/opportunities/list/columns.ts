import type { ColumnDef } from '@/components/columns';
import { hasAnyRole } from '@/lib/roles';

export type OpportunityColumn =
  | 'actions'
  | 'name'
  | 'status'
  | 'client'
  | 'cnpj'
  | 'city'
  | 'estimated'
  | 'probability'
  | 'created'
  | 'age'
  | 'approval'
  | 'register'
  | 'resale'
  | 'seller'
  | 'distributor'
  | 'responsible';

/**
 * The table's columns, in their order. Ações and the name are always shown and
 * stay in view when the table scrolls sideways (components/tables.css).
 */
export const OPPORTUNITY_COLUMNS: readonly ColumnDef<OpportunityColumn>[] = [
  { key: 'actions', label: 'Ações', width: 80, fixed: true },
  { key: 'name', label: 'Nome da oportunidade', width: 160, fixed: true },
  { key: 'status', label: 'Status', width: 124 },
  { key: 'client', label: 'Cliente' },
  { key: 'cnpj', label: 'CNPJ', width: 156 },
  { key: 'city', label: 'Cidade/UF', width: 150 },
  { key: 'estimated', label: 'Valor estimado', width: 128 },
  { key: 'probability', label: 'Probabilidade', width: 124 },
  { key: 'created', label: 'Cadastro', width: 104 },
  { key: 'age', label: 'Tempo em análise', width: 116 },
  { key: 'approval', label: 'Aprovação', width: 104 },
  { key: 'register', label: 'Registro', width: 110 },
  { key: 'resale', label: 'Revenda' },
  { key: 'seller', label: 'Vendedor' },
  { key: 'distributor', label: 'Distribuidor', width: 140 },
  { key: 'responsible', label: 'Responsável', width: 150 },
];

/**
 * The columns a role sees before choosing (they fit a 1366 px screen): staff
 * see who registered a deal (company and seller) and how long it waits; a
 * reseller sees its seller; a seller its own deals' probability.
 */
export function defaultOpportunityColumns(roles: readonly string[]): OpportunityColumn[] {
  if (hasAnyRole(roles, ['REPRESENTATIVE', 'SUPPORT'])) return ['status', 'client', 'estimated', 'age', 'resale', 'seller'];
  if (roles.includes('RESALE')) return ['status', 'client', 'estimated', 'created', 'age', 'seller'];
  return ['status', 'client', 'estimated', 'probability', 'created', 'age'];
}
