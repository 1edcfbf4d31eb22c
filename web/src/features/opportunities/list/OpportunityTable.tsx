import { Button, HTMLTable, Tag } from '@blueprintjs/core';
import { ArrowDownIcon, ArrowUpIcon, EyeOpenIcon, HistoryIcon, SortIcon } from '@blueprintjs/icons';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { AgeBar } from '../../../components/AgeBar';
import { ProbabilityBar } from '../../../components/ProbabilityBar';
import { formatBRL, formatCNPJ, formatDate } from '../../../lib/format';
import { PANEL_BASE } from '../../../lib/guards';
import type { ListSort, OpportunityRow, SortField } from '../../../lib/opportunityListApi';
import { statusIntent, statusLabel } from '../../../lib/status';

/** Shown instead of an approval date for anything not approved (spec §2). */
export const NO_DATE = 'Sem Data';

export function detailsPath(id: string): string {
  return `${PANEL_BASE}/Opportunities/${encodeURIComponent(id)}`;
}

export function historyPath(id: string, type: 'Opportunities' | 'Users' | 'Resales' = 'Opportunities'): string {
  return `${PANEL_BASE}/History/${encodeURIComponent(id)}?type=${type}`;
}

/** Client-side order of the loaded page (spec §2): createdAt or estimated, asc or desc. */
export function sortRows(rows: readonly OpportunityRow[], sort: ListSort): OpportunityRow[] {
  const key = (r: OpportunityRow) =>
    sort.field === 'estimated' ? Number(r.estimated) || 0 : new Date(r.createdAt).getTime() || 0;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => (key(a.row) - key(b.row)) * sign || a.i - b.i)
    .map((x) => x.row);
}

interface SortHeaderProps {
  field: SortField;
  label: string;
  sort: ListSort;
  onSort: (field: SortField) => void;
}

function SortHeader({ field, label, sort, onSort }: SortHeaderProps) {
  const active = sort.field === field;
  const icon = !active ? <SortIcon /> : sort.direction === 'asc' ? <ArrowUpIcon /> : <ArrowDownIcon />;
  return (
    <th aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'} scope="col">
      <Button
        variant="minimal"
        size="small"
        endIcon={icon}
        text={label}
        data-testid={`sort-${field}`}
        aria-label={`Ordenar por ${label.toLowerCase()}`}
        onClick={() => onSort(field)}
      />
    </th>
  );
}

export interface OpportunityTableProps {
  rows: readonly OpportunityRow[];
  sort: ListSort;
  onSort: (field: SortField) => void;
  distributor: string;
  busy?: boolean;
  now?: number;
}

/**
 * The opportunities table (spec §2): a click on a row opens the details; for the
 * keyboard, each row's eye button does the same and its history link follows.
 */
export function OpportunityTable({ rows, sort, onSort, distributor, busy = false, now = Date.now() }: OpportunityTableProps) {
  const navigate = useNavigate();
  const open = (id: string) => navigate(detailsPath(id));
  const onRowClick = (e: MouseEvent<HTMLTableRowElement>, id: string) => {
    if ((e.target as HTMLElement).closest('a, button, input, select')) return;
    open(id);
  };

  return (
    // Focusable so the keyboard can scroll the columns a narrow screen hides.
    <div className="table-scroll" aria-busy={busy} tabIndex={0} role="region" aria-label="Tabela de oportunidades">
      <HTMLTable className="opportunity-table" interactive compact striped data-testid="opportunity-table">
        <thead>
          <tr>
            <th scope="col">Ações</th>
            <th scope="col">Status</th>
            <th scope="col">Nome da oportunidade</th>
            <th scope="col">Cliente</th>
            <th scope="col">CNPJ</th>
            <th scope="col">Cidade/UF</th>
            <SortHeader field="estimated" label="Valor estimado" sort={sort} onSort={onSort} />
            <th scope="col">Probabilidade</th>
            <SortHeader field="createdAt" label="Cadastro" sort={sort} onSort={onSort} />
            <th scope="col">Tempo em análise</th>
            <th scope="col">Aprovação</th>
            <th scope="col">Registro</th>
            <th scope="col">Revenda</th>
            <th scope="col">Vendedor</th>
            <th scope="col">Distribuidor</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              data-testid="opportunity-row"
              data-id={row.id}
              data-status={row.status}
              className="is-clickable"
              onClick={(e) => onRowClick(e, row.id)}
            >
              <td className="cell-actions">
                <Button
                  variant="minimal"
                  size="small"
                  icon={<EyeOpenIcon />}
                  aria-label={`Ver detalhes de ${row.name || 'oportunidade'}`}
                  title="Ver detalhes"
                  data-testid="row-details"
                  onClick={() => open(row.id)}
                />
                <Link
                  to={historyPath(row.id)}
                  className="history-link"
                  aria-label={`Histórico de ${row.name || 'oportunidade'}`}
                  title="Histórico"
                  data-testid="row-history"
                >
                  <HistoryIcon />
                </Link>
              </td>
              <td>
                <Tag intent={statusIntent(row.status)} minimal data-testid="row-status">
                  {statusLabel(row.status)}
                </Tag>
              </td>
              <td className="cell-name" data-testid="row-name">
                {row.name || 'N/C'}
              </td>
              <td className="cell-client">
                <span data-testid="row-fantasy-name">{row.fantasyName || 'N/C'}</span>
                {row.corporateName && <small className="cell-secondary">{row.corporateName}</small>}
              </td>
              <td className="cell-nowrap" data-testid="row-cnpj">
                {formatCNPJ(row.cnpj)}
              </td>
              <td className="cell-nowrap">{[row.city, row.state].filter(Boolean).join('/') || 'N/C'}</td>
              <td className="cell-nowrap cell-number" data-testid="row-estimated">
                {formatBRL(row.estimated) || formatBRL(0)}
              </td>
              <td>
                <ProbabilityBar value={row.probabilityClosing} />
              </td>
              <td className="cell-nowrap" data-testid="row-created">
                {formatDate(row.createdAt)}
              </td>
              <td>{row.status === 'analysis' ? <AgeBar since={row.createdAt} now={now} /> : <span aria-label="Não se aplica">—</span>}</td>
              <td className="cell-nowrap" data-testid="row-approval">
                {row.status === 'approved' && formatDate(row.approveDate) ? formatDate(row.approveDate) : NO_DATE}
              </td>
              <td className="cell-nowrap" data-testid="row-register">
                {row.register || 'N/C'}
              </td>
              <td>{row.resale || 'N/C'}</td>
              <td>{row.seller || 'N/C'}</td>
              <td data-testid="row-distributor">{distributor}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
