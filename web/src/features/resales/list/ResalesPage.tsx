import { Button, Checkbox, FormGroup, Intent, Tag } from '@blueprintjs/core';
import { EyeOpenIcon, FilterRemoveIcon, HistoryIcon } from '@blueprintjs/icons';
import type { FactoryOpts } from 'imask';
import { useEffect, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  statusClass,
  RESALE_STATUSES,
  RESALE_STATUS_LABELS,
  resaleStatusIntent,
  resaleStatusLabel,
  type ResaleStatus,
} from '@/lib/status';
import { CellText } from '@/components/CellText';
import { ColumnChooser } from '@/components/ColumnChooser';
import { shownColumns } from '@/components/columns';
import { SortControl } from '@/components/SortControl';
import { ListScreen } from '@/components/ListScreen';
import { columnCell, ColumnTable, type CellSpec } from '@/components/ColumnTable';
import { SortableHeader } from '@/components/SortableHeader';
import { listProps, useListData } from '@/components/useListData';
import { PAGE_SIZES_WITH_ALL } from '@/components/PageSizeSelect';
import { formatCNPJ, formatDate, formatPhone } from '@/lib/format';
import { PANEL_BASE, resaleDetailsPath } from '@/lib/guards';
import { listResales, type Resale } from '../api/resale';
import { MaskedInput } from '@/components/MaskedInput';
import {
  DEFAULT_RESALE_COLUMNS,
  RESALE_COLUMNS,
  appliedDate,
  isCompleteDate,
  loadResalePreferences,
  saveResalePreferences,
  type ResaleColumn,
} from './preferences';
import '@/components/partners.css';

const DATE_MASK: FactoryOpts = { mask: '00/00/0000' };

/** The company stays in view when the table scrolls sideways (components/tables.css). */
const STICKY = ' is-sticky is-sticky-edge';

/** The list sorts by request date only (spec §2: createdAt -1 or 1). */
const SORT_FIELDS = [{ value: 'createdAt', label: 'Solicitado em' }] as const;

export function resaleHistoryPath(id: string): string {
  return `${PANEL_BASE}/History/${encodeURIComponent(id)}?type=Resales`;
}

/** Resales list `/Painel/Resales` (spec §2 "Resales list", §9). */
export function ResalesPage() {
  const navigate = useNavigate();
  const [initial] = useState(loadResalePreferences);
  const [status, setStatus] = useState<ResaleStatus[]>(initial.status);
  const [date, setDate] = useState(initial.date);
  const [createdAt, setCreatedAt] = useState(initial.createdAt);
  const [amount, setAmount] = useState(initial.amount);
  const [columns, setColumns] = useState<ResaleColumn[]>(initial.columns);
  const [page, setPage] = useState(1);

  useEffect(
    () => saveResalePreferences({ status, date, createdAt, amount, columns }),
    [status, date, createdAt, amount, columns],
  );

  const sentDate = appliedDate(date);
  const queryKey = JSON.stringify({ amount, page, status, date: sentDate, createdAt });
  const list = useListData<Resale>(
    (signal) => listResales(JSON.parse(queryKey), signal),
    queryKey,
    page,
    amount,
    setPage,
  );
  const { rows, state, error, setError } = list;

  function toggleStatus(value: ResaleStatus, checked: boolean) {
    setStatus((list) => (checked ? RESALE_STATUSES.filter((s) => s === value || list.includes(s)) : list.filter((s) => s !== value)));
    setPage(1);
  }
  function onDate(value: string) {
    setDate(value);
    setPage(1);
  }
  function clearFilters() {
    setStatus([]);
    setDate('');
    setPage(1);
  }
  const dateInvalid = date.length === 10 && !isCompleteDate(date);

  const open = (r: Resale) => navigate(resaleDetailsPath(r));
  const onRowClick = (e: MouseEvent<HTMLTableRowElement>, r: Resale) => {
    if ((e.target as HTMLElement).closest('a, button, input, select')) return;
    open(r);
  };
  const onRowKey = (e: KeyboardEvent<HTMLTableRowElement>, r: Resale) => {
    if (e.target === e.currentTarget && e.key === 'Enter') open(r);
  };

  const loading = state === 'loading';
  const sortLabel = createdAt === -1 ? 'mais recentes primeiro' : 'mais antigas primeiro';
  const shown = shownColumns(RESALE_COLUMNS, columns);
  const flipSort = () => {
    setCreatedAt((s) => (s === -1 ? 1 : -1));
    setPage(1);
  };

  const header = (key: ResaleColumn, label: string): ReactNode => {
    if (key === 'date') {
      return (
        <SortableHeader
          key={key}
          className="col-date"
          label={label}
          direction={createdAt === -1 ? 'desc' : 'asc'}
          onSort={flipSort}
          testId="sort-createdAt"
          ariaLabel={`Solicitado em: ordenar (agora: ${sortLabel})`}
        />
      );
    }
    return (
      <th key={key} scope="col" className={`col-${key}${key === 'resale' ? STICKY : ''}`}>
        {label}
      </th>
    );
  };

  const cellOf = (key: ResaleColumn, r: Resale): CellSpec => {
    switch (key) {
      case 'resale':
        return {
          content: (
            <>
              <CellText text={r.corporateName} className="cell-strong" />
              <CellText text={r.fantasyName || 'N/C'} className="cell-secondary" />
            </>
          ),
          className: STICKY,
        };
      case 'cnpj':
        return { content: formatCNPJ(r.cnpj), className: ' cell-nowrap' };
      case 'phone':
        return { content: formatPhone(r.phone), className: ' cell-nowrap' };
      case 'contact':
        return {
          content: (
            <>
              <CellText text={r.contactName} />
              <CellText text={r.email} className="cell-secondary" />
            </>
          ),
        };
      case 'date':
        return { content: formatDate(r.createdAt), className: ' cell-nowrap' };
      case 'status':
        return {
          content: (
            <Tag intent={resaleStatusIntent(r.status)} className={statusClass(r.status)} minimal round data-testid="resale-status">
              {resaleStatusLabel(r.status)}
            </Tag>
          ),
          bare: true,
        };
      case 'actions':
        return {
          content: (
            <>
              <Link
                to={resaleDetailsPath(r)}
                className="icon-link"
                aria-label={`Detalhes da revenda ${r.corporateName}`}
                title="Detalhes"
                data-testid="resale-details-link"
              >
                <EyeOpenIcon />
              </Link>
              <Link
                to={resaleHistoryPath(r.id)}
                className="icon-link"
                aria-label={`Histórico da revenda ${r.corporateName}`}
                title="Histórico"
                data-testid="resale-history-link"
              >
                <HistoryIcon />
              </Link>
            </>
          ),
          className: ' cell-actions',
          bare: true,
        };
    }
  };

  const table = (
    <ColumnTable
      label="Tabela de revendas"
      busy={loading}
      className="partners-table list-table resales-table"
      data-testid="resales-table"
      columns={shown}
      header={(c) => header(c.key, c.label)}
      rows={rows}
      rowHeight={53}
      renderRow={(r, index) => (
        <tr
          key={r.id}
          className={index % 2 === 1 ? 'is-clickable is-odd' : 'is-clickable'}
          tabIndex={0}
          data-testid={`resale-row-${r.id}`}
          onClick={(e) => onRowClick(e, r)}
          onKeyDown={(e) => onRowKey(e, r)}
        >
          {shown.map((c) => columnCell(c, cellOf(c.key, r)))}
        </tr>
      )}
    />
  );

  return (
    <ListScreen
      className="resales-page"
      title="Revendas"
      headerClassName="partners-header"
      filtersClassName="partners-card"
      filters={
        <div className="partners-filters" role="search" aria-label="Filtros das revendas">
          <fieldset className="partners-status-filter">
            <legend>Status</legend>
            {RESALE_STATUSES.map((s) => (
              <Checkbox
                key={s}
                inline
                label={RESALE_STATUS_LABELS[s]}
                checked={status.includes(s)}
                onChange={(e) => toggleStatus(s, e.currentTarget.checked)}
                data-testid={`status-filter-${s}`}
              />
            ))}
          </fieldset>
          <FormGroup
            label="Data da solicitação"
            labelFor="resale-date"
            intent={dateInvalid ? Intent.DANGER : Intent.NONE}
            helperText={dateInvalid ? 'Data inválida' : undefined}
            className="partners-date-filter"
          >
            <MaskedInput
              id="resale-date"
              name="date"
              inputMode="numeric"
              placeholder="dd/mm/aaaa"
              mask={DATE_MASK}
              maxLength={10}
              value={date}
              intent={dateInvalid ? Intent.DANGER : Intent.NONE}
              onValueChange={onDate}
              data-testid="date-filter"
            />
          </FormGroup>
          <Button
            variant="minimal"
            icon={<FilterRemoveIcon />}
            text="Limpar filtros"
            onClick={clearFilters}
            disabled={status.length === 0 && date === ''}
            data-testid="clear-filters"
          />
        </div>
      }
      errorTitle="Não foi possível carregar as revendas"
      emptyDescription={status.length > 0 || sentDate ? 'Nenhuma revenda corresponde aos filtros.' : 'Nenhuma revenda cadastrada ainda.'}
      {...listProps(list, amount, setAmount, page, setPage)}
      noun={['revenda', 'revendas']}
      pageSizes={PAGE_SIZES_WITH_ALL}
      tools={
        <>
          <SortControl
            fields={SORT_FIELDS}
            field="createdAt"
            direction={createdAt === -1 ? 'desc' : 'asc'}
            onChange={(_, direction) => {
              setCreatedAt(direction === 'desc' ? -1 : 1);
              setPage(1);
            }}
          />
          <ColumnChooser
            columns={RESALE_COLUMNS}
            chosen={columns}
            defaults={DEFAULT_RESALE_COLUMNS}
            onChange={setColumns}
          />
        </>
      }
      error={error}
      onErrorClose={() => setError(null)}
    >
      {table}
    </ListScreen>
  );
}
