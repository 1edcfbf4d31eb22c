import { Button, HTMLTable, Tag } from '@blueprintjs/core';
import { ArrowDownIcon, ArrowUpIcon, EyeOpenIcon, HistoryIcon, SortIcon } from '@blueprintjs/icons';
import { memo, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { AgeBar } from '../../../components/AgeBar';
import { CellText } from '../../../components/CellText';
import { ProbabilityBar } from '../../../components/ProbabilityBar';
import { VirtualRows } from '../../../components/VirtualRows';
import '../../../components/tables.css';
import { formatBRL, formatCNPJ, formatDate } from '../../../lib/format';
import { PANEL_BASE } from '../../../lib/guards';
import type { ListSort, OpportunityRow, SortField } from '../../../lib/opportunityListApi';
import { statusClass, statusIntent, statusLabel } from '../../../lib/status';

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
  // Each row's key is computed once (10,000 rows: 10,000 date parses, not 280,000).
  const key = (r: OpportunityRow) =>
    sort.field === 'estimated' ? Number(r.estimated) || 0 : new Date(r.createdAt).getTime() || 0;
  const keys = rows.map(key);
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows
    .map((_, i) => i)
    .sort((a, b) => (keys[a] - keys[b]) * sign || a - b)
    .map((i) => rows[i]);
}

interface SortHeaderProps {
  field: SortField;
  label: string;
  sort: ListSort;
  onSort: (field: SortField) => void;
  className?: string;
}

function SortHeader({ field, label, sort, onSort, className }: SortHeaderProps) {
  const active = sort.field === field;
  const icon = !active ? <SortIcon /> : sort.direction === 'asc' ? <ArrowUpIcon /> : <ArrowDownIcon />;
  return (
    <th aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'} scope="col" className={className}>
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

/** Height of a table row (two short lines) until one is drawn. */
const ROW_HEIGHT = 53;
const COLUMNS = 15;

/**
 * The opportunities table (spec §2): a click on a row opens the details; for the
 * keyboard, each row's eye button does the same and its history link follows.
 * The columns shown follow the card's width (docs/web.md "Tables that fit"), long
 * text is cut with its whole value as a tooltip, a phone gets one card per row,
 * and a long list renders only the rows in view (components/VirtualRows). Memoized:
 * typing in the filters does not redraw it.
 */
export const OpportunityTable = memo(function OpportunityTable({
  rows,
  sort,
  onSort,
  distributor,
  busy = false,
  now = Date.now(),
}: OpportunityTableProps) {
  const navigate = useNavigate();
  const open = (id: string) => navigate(detailsPath(id));
  const onRowClick = (e: MouseEvent<HTMLTableRowElement>, id: string) => {
    if ((e.target as HTMLElement).closest('a, button, input, select')) return;
    open(id);
  };

  const renderRow = (row: OpportunityRow, index: number) => {
    const name = row.name || 'N/C';
    const place = [row.city, row.state].filter(Boolean).join('/') || 'N/C';
    const approval = row.status === 'approved' && formatDate(row.approveDate) ? formatDate(row.approveDate) : NO_DATE;
    return (
      <tr
        key={row.id}
        data-testid="opportunity-row"
        data-id={row.id}
        data-status={row.status}
        className={index % 2 === 1 ? 'is-clickable is-odd' : 'is-clickable'}
        onClick={(e) => onRowClick(e, row.id)}
      >
        <td className="col-actions">
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
        <td className="col-status">
          <Tag intent={statusIntent(row.status)} className={statusClass(row.status)} minimal htmlTitle={statusLabel(row.status)} data-testid="row-status">
            {statusLabel(row.status)}
          </Tag>
        </td>
        <td className="col-name" data-label="Nome da oportunidade">
          <CellText text={name} testId="row-name" className="cell-strong" />
        </td>
        <td className="col-client" data-label="Cliente">
          <CellText text={row.fantasyName || 'N/C'} testId="row-fantasy-name" />
          {row.corporateName && <CellText text={row.corporateName} className="cell-secondary" />}
        </td>
        <td className="col-cnpj cell-nowrap" data-label="CNPJ" data-testid="row-cnpj">
          {formatCNPJ(row.cnpj)}
        </td>
        <td className="col-city" data-label="Cidade/UF">
          <CellText text={place} />
        </td>
        <td className="col-estimated cell-nowrap cell-number" data-label="Valor estimado" data-testid="row-estimated">
          {formatBRL(row.estimated) || formatBRL(0)}
        </td>
        <td className="col-probability" data-label="Probabilidade">
          <ProbabilityBar value={row.probabilityClosing} />
        </td>
        <td className="col-created cell-nowrap" data-label="Cadastro" data-testid="row-created">
          {formatDate(row.createdAt)}
        </td>
        <td className="col-age" data-label="Tempo em análise">
          {row.status === 'analysis' ? <AgeBar since={row.createdAt} now={now} /> : <span aria-label="Não se aplica">—</span>}
        </td>
        <td className="col-approval cell-nowrap" data-label="Aprovação" data-testid="row-approval">
          {approval}
        </td>
        <td className="col-register" data-label="Registro">
          <CellText text={row.register || 'N/C'} testId="row-register" />
        </td>
        <td className="col-resale" data-label="Revenda">
          <CellText text={row.resale || 'N/C'} />
        </td>
        <td className="col-seller" data-label="Vendedor">
          <CellText text={row.seller || 'N/C'} />
        </td>
        <td className="col-distributor" data-label="Distribuidor">
          <CellText text={distributor} testId="row-distributor" />
        </td>
      </tr>
    );
  };

  return (
    // Focusable so the keyboard can reach every part of the table.
    <div className="table-scroll" aria-busy={busy} tabIndex={0} role="region" aria-label="Tabela de oportunidades">
      <HTMLTable
        className="opportunity-table list-table"
        interactive
        compact
        data-testid="opportunity-table"
        data-row-count={rows.length}
      >
        <thead>
          <tr>
            <th scope="col" className="col-actions">
              Ações
            </th>
            <th scope="col" className="col-status">
              Status
            </th>
            <th scope="col" className="col-name">
              Nome da oportunidade
            </th>
            <th scope="col" className="col-client">
              Cliente
            </th>
            <th scope="col" className="col-cnpj">
              CNPJ
            </th>
            <th scope="col" className="col-city">
              Cidade/UF
            </th>
            <SortHeader field="estimated" label="Valor estimado" sort={sort} onSort={onSort} className="col-estimated" />
            <th scope="col" className="col-probability">
              Probabilidade
            </th>
            <SortHeader field="createdAt" label="Cadastro" sort={sort} onSort={onSort} className="col-created" />
            <th scope="col" className="col-age">
              Tempo em análise
            </th>
            <th scope="col" className="col-approval">
              Aprovação
            </th>
            <th scope="col" className="col-register">
              Registro
            </th>
            <th scope="col" className="col-resale">
              Revenda
            </th>
            <th scope="col" className="col-seller">
              Vendedor
            </th>
            <th scope="col" className="col-distributor">
              Distribuidor
            </th>
          </tr>
        </thead>
        <VirtualRows rows={rows} columns={COLUMNS} rowHeight={ROW_HEIGHT} renderRow={renderRow} />
      </HTMLTable>
    </div>
  );
});
