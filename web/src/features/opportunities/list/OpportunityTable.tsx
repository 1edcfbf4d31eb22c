import { Button, Tag } from '@blueprintjs/core';
import { EyeOpenIcon, HistoryIcon } from '@blueprintjs/icons';
import { memo, type MouseEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { AgeBar } from '@/components/AgeBar';
import { CellText } from '@/components/CellText';
import { columnCell, ColumnTable, type CellSpec } from '@/components/ColumnTable';
import { SortableHeader } from '@/components/SortableHeader';
import { ProbabilityBar } from '@/components/ProbabilityBar';
import { shownColumns } from '@/components/columns';
import '@/components/tables.css';
import { formatBRL, formatCNPJ, formatDate } from '@/lib/format';
import { detailsPath, historyPath } from '@/lib/guards';
import type { ListSort, OpportunityRow, SortField } from '../api/list';
import { statusClass, statusIntent, statusLabel } from '@/lib/status';
import { ValidityCue } from '../shared/validity';
import { OPPORTUNITY_COLUMNS, type OpportunityColumn } from './columns';

/** Shown instead of an approval date for anything not approved (spec §2). */
export const NO_DATE = 'Sem Data';

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

export interface OpportunityTableProps {
  rows: readonly OpportunityRow[];
  sort: ListSort;
  onSort: (field: SortField) => void;
  distributor: string;
  /** The chosen columns (all of them when not given). */
  columns?: readonly OpportunityColumn[];
  busy?: boolean;
  now?: number;
}

/** The columns that stay in view when the table scrolls sideways (components/tables.css). */
const STICKY: Partial<Record<OpportunityColumn, string>> = { actions: ' is-sticky', name: ' is-sticky is-sticky-edge' };

/** Height of a table row (two short lines) until one is drawn. */
const ROW_HEIGHT = 53;

const ALL_KEYS = OPPORTUNITY_COLUMNS.map((c) => c.key);

/**
 * The opportunities table (spec §2): a click on a row opens the details; for the
 * keyboard, each row's eye button does the same and its history link follows.
 * The columns are the user's choice (the 'Colunas' chooser); when they are wider
 * than the card the table scrolls sideways with Ações and the name in view
 * (docs/web.md "Columns"). Long text is cut with its whole value as a tooltip,
 * a phone gets one card per row, and a long list renders only the rows in view
 * (components/VirtualRows). Memoized: typing in the filters does not redraw it.
 */
export const OpportunityTable = memo(function OpportunityTable({
  rows,
  sort,
  onSort,
  distributor,
  columns = ALL_KEYS,
  busy = false,
  now = Date.now(),
}: OpportunityTableProps) {
  const navigate = useNavigate();
  const open = (id: string) => navigate(detailsPath(id));
  const onRowClick = (e: MouseEvent<HTMLTableRowElement>, id: string) => {
    if ((e.target as HTMLElement).closest('a, button, input, select')) return;
    open(id);
  };
  const shown = shownColumns(OPPORTUNITY_COLUMNS, columns);

  const header = (key: OpportunityColumn, label: string): ReactNode => {
    const className = `col-${key}${STICKY[key] ?? ''}`;
    if (key === 'estimated' || key === 'created') {
      const field: SortField = key === 'estimated' ? 'estimated' : 'createdAt';
      return (
        <SortableHeader
          key={key}
          label={label}
          direction={sort.field === field ? sort.direction : null}
          onSort={() => onSort(field)}
          testId={`sort-${field}`}
          className={className}
        />
      );
    }
    return (
      <th key={key} scope="col" className={className}>
        {label}
      </th>
    );
  };

  const cellOf = (key: OpportunityColumn, row: OpportunityRow): CellSpec => {
    switch (key) {
      case 'actions':
        return {
          content: (
            <>
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
            </>
          ),
          className: STICKY.actions,
          bare: true,
        };
      case 'name':
        return { content: <CellText text={row.name || 'N/C'} testId="row-name" className="cell-strong" />, className: STICKY.name };
      case 'status':
        return {
          content: (
            <>
              <Tag intent={statusIntent(row.status)} className={statusClass(row.status)} minimal htmlTitle={statusLabel(row.status)} data-testid="row-status">
                {statusLabel(row.status)}
              </Tag>
              <ValidityCue subject={row} now={now} />
            </>
          ),
          bare: true,
        };
      case 'client':
        return {
          content: (
            <>
              <CellText text={row.fantasyName || 'N/C'} testId="row-fantasy-name" />
              {row.corporateName && <CellText text={row.corporateName} className="cell-secondary" />}
            </>
          ),
        };
      case 'cnpj':
        return { content: formatCNPJ(row.cnpj), className: ' cell-nowrap', testId: 'row-cnpj' };
      case 'city':
        return { content: <CellText text={[row.city, row.state].filter(Boolean).join('/') || 'N/C'} /> };
      case 'estimated':
        return { content: formatBRL(row.estimated) || formatBRL(0), className: ' cell-nowrap cell-number', testId: 'row-estimated' };
      case 'probability':
        return { content: <ProbabilityBar value={row.probabilityClosing} /> };
      case 'created':
        return { content: formatDate(row.createdAt), className: ' cell-nowrap', testId: 'row-created' };
      case 'age':
        return { content: row.status === 'analysis' ? <AgeBar since={row.createdAt} now={now} /> : <span aria-label="Não se aplica">—</span> };
      case 'approval':
        return {
          content: row.status === 'approved' && formatDate(row.approveDate) ? formatDate(row.approveDate) : NO_DATE,
          className: ' cell-nowrap',
          testId: 'row-approval',
        };
      case 'register':
        return { content: <CellText text={row.register || 'N/C'} testId="row-register" /> };
      case 'resale':
        return { content: <CellText text={row.resale || 'N/C'} testId="row-resale" /> };
      case 'seller':
        return { content: <CellText text={row.seller || 'N/C'} testId="row-seller" /> };
      case 'responsible':
        return { content: <CellText text={(row.representative ?? []).map((r) => r.name).join(', ') || 'Todos'} testId="row-responsible" /> };
      case 'distributor':
        return { content: <CellText text={distributor} testId="row-distributor" /> };
    }
  };

  const renderRow = (row: OpportunityRow, index: number) => (
    <tr
      key={row.id}
      data-testid="opportunity-row"
      data-id={row.id}
      data-status={row.status}
      className={index % 2 === 1 ? 'is-clickable is-odd' : 'is-clickable'}
      onClick={(e) => onRowClick(e, row.id)}
    >
      {shown.map((c) => columnCell(c, cellOf(c.key, row)))}
    </tr>
  );

  return (
    <ColumnTable
      label="Tabela de oportunidades"
      busy={busy}
      className="opportunity-table list-table"
      compact
      data-testid="opportunity-table"
      data-row-count={rows.length}
      columns={shown}
      header={(c) => header(c.key, c.label)}
      rows={rows}
      rowHeight={ROW_HEIGHT}
      renderRow={renderRow}
    />
  );
});
