import { Button, Classes } from '@blueprintjs/core';
import { DownloadIcon, PlusIcon } from '@blueprintjs/icons';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ColumnChooser } from '@/components/ColumnChooser';
import { LIST_ERROR } from '@/components/ListBody';
import { ListScreen } from '@/components/ListScreen';
import { SortControl } from '@/components/SortControl';
import { listProps, useListData } from '@/components/useListData';
import { PAGE_SIZES_WITH_ALL } from '@/components/PageSizeSelect';
import { useBrand } from '@/lib/brand';
import { useCities, useStates } from '../api/geo';
import { PANEL_BASE } from '@/lib/guards';
import {
  EMPTY_FILTERS,
  exportOpportunities,
  listEndpointFor,
  listOpportunities,
  listQuery,
  saveBlob,
  type ListSort,
  type OpportunityFilters,
  type OpportunityRow,
  type SortField,
} from '../api/list';
import { hasAnyRole } from '@/lib/roles';
import { readSession } from '@/lib/session';
import type { OpportunityStatus } from '@/lib/status';
import { FilterBar, type TextFilter } from './FilterBar';
import { OPPORTUNITY_COLUMNS, defaultOpportunityColumns, type OpportunityColumn } from './columns';
import { OpportunityTable, sortRows } from './OpportunityTable';
import { loadPreferences, savePreferences } from './preferences';
import './list.css';

/** Text filters wait this long after the last keystroke (spec §9). */
export const FILTER_DEBOUNCE_MS = 500;

/** The sortable fields, named as their column headers (spec §2: createdAt or estimated). */
const SORT_FIELDS: readonly { value: SortField; label: string }[] = [
  { value: 'createdAt', label: 'Cadastro' },
  { value: 'estimated', label: 'Valor estimado' },
];

/** The export is the list's data: its failure is a list failure (spec §8). */
export const EXPORT_ERROR = LIST_ERROR;

function hasFilters(f: OpportunityFilters): boolean {
  return f.status.length > 0 || Object.entries(f).some(([k, v]) => k !== 'status' && typeof v === 'string' && v !== '');
}

/** Opportunities list (spec §2 "Opportunities list", §6 list endpoint, §8 list errors). */
export function OpportunitiesPage() {
  const brand = useBrand();
  const session = readSession();
  const roles = session.permissions;
  const roleKey = roles.join(',');
  const endpoint = useMemo(() => listEndpointFor(roleKey ? roleKey.split(',') : []), [roleKey]);
  const canAdd = hasAnyRole(roles, ['RESALE', 'SELLER']);

  const [initial] = useState(() => loadPreferences(roles));
  const defaultColumns = useMemo(() => defaultOpportunityColumns(roleKey ? roleKey.split(',') : []), [roleKey]);
  const [filters, setFilters] = useState<OpportunityFilters>(initial.filters);
  const [applied, setApplied] = useState<OpportunityFilters>(initial.filters);
  const [sort, setSort] = useState<ListSort>(initial.sort);
  const [amount, setAmount] = useState<number>(initial.amount);
  const [columns, setColumns] = useState<OpportunityColumn[]>(initial.columns);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);

  const filtersRef = useRef(filters);
  const timer = useRef<number | undefined>(undefined);

  // Preferences follow every change of the filters, the sort, the page size and the columns.
  useEffect(() => savePreferences({ filters, sort, amount, columns }), [filters, sort, amount, columns]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  // Geography: cached for the app's life (lib/geoApi.ts); a failure shows under the select.
  const { states, failed: statesFailed } = useStates();
  const { cities, failed: citiesFailed } = useCities(filters.state);

  function change(next: OpportunityFilters, immediate: boolean) {
    filtersRef.current = next;
    setFilters(next);
    window.clearTimeout(timer.current);
    const apply = () => {
      setApplied(filtersRef.current);
      setPage(1);
    };
    if (immediate) apply();
    else timer.current = window.setTimeout(apply, FILTER_DEBOUNCE_MS);
  }

  const onText = (key: TextFilter, value: string) => {
    if (filtersRef.current[key] === value) return;
    change({ ...filtersRef.current, [key]: value }, false);
  };
  const onStatus = (status: OpportunityStatus[]) => change({ ...filtersRef.current, status }, true);
  const onState = (uf: string) => change({ ...filtersRef.current, state: uf, city: '' }, true);
  const onCity = (city: string) => change({ ...filtersRef.current, city }, true);
  const onClear = () => change({ ...EMPTY_FILTERS, status: [] }, true);
  const onMine = (mine: boolean) => change({ ...filtersRef.current, mine }, true);

  // Stable, so a keystroke in the filters does not redraw the (memoized) table.
  const onSort = useCallback((field: SortField) => {
    setSort((s) =>
      s.field === field ? { field, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { field, direction: 'desc' },
    );
    setPage(1);
  }, []);
  const onSortControl = (field: SortField, direction: ListSort['direction']) => {
    setSort({ field, direction });
    setPage(1);
  };

  // One request per distinct query; a newer one cancels the older.
  const queryKey = JSON.stringify(listQuery(applied, sort, amount, page));
  const list = useListData<OpportunityRow>(
    endpoint.ok ? (signal) => listOpportunities(endpoint.path, JSON.parse(queryKey), signal) : null,
    `${endpoint.ok ? endpoint.path : ''}|${queryKey}`,
    page,
    amount,
    setPage,
  );
  const { rows, state, error, setError } = list;

  async function onExport() {
    if (exporting) return;
    setExporting(true);
    const res = await exportOpportunities(applied, sort);
    setExporting(false);
    if (res.ok) saveBlob(res.blob, res.fileName);
    else if (res.status !== 401) setError(res.status < 500 && res.message ? res.message : EXPORT_ERROR);
  }

  const shown = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const loading = state === 'loading';
  const distributor = brand.distributor || 'N/C';

  const table = (
    <OpportunityTable
      rows={shown}
      sort={sort}
      onSort={onSort}
      distributor={distributor}
      columns={columns}
      busy={loading}
    />
  );

  return (
    <ListScreen
      className="opportunities-page"
      title="Oportunidades"
      headerClassName="page-header"
      actions={
        <div className="page-actions">
          <Button
            icon={<DownloadIcon />}
            text="Exportar Excel"
            loading={exporting}
            disabled={!endpoint.ok}
            onClick={() => void onExport()}
            data-testid="export-button"
          />
          {canAdd && (
            <Link
              to={`${PANEL_BASE}/Opportunities/registration`}
              className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}
              data-testid="add-opportunity"
            >
              <PlusIcon />
              <span className={Classes.BUTTON_TEXT}>Adicionar Oportunidade</span>
            </Link>
          )}
        </div>
      }
      filtersClassName="list-card"
      filters={
        <FilterBar
          filters={filters}
          states={states}
          cities={cities}
          geoError={{ states: statesFailed, cities: citiesFailed }}
          onText={onText}
          onStatus={onStatus}
          onState={onState}
          onCity={onCity}
          onClear={onClear}
          onMine={roles.includes('REPRESENTATIVE') ? onMine : undefined}
        />
      }
      errorTitle="Não foi possível carregar as oportunidades"
      emptyDescription={hasFilters(applied) ? 'Nenhuma oportunidade corresponde aos filtros.' : 'Nenhuma oportunidade registrada ainda.'}
      blocked={endpoint.ok ? null : endpoint.message}
      {...listProps(list, amount, setAmount, page, setPage)}
      noun={['oportunidade', 'oportunidades']}
      pageSizes={PAGE_SIZES_WITH_ALL}
      tools={
        <>
          <SortControl fields={SORT_FIELDS} field={sort.field} direction={sort.direction} onChange={onSortControl} />
          <ColumnChooser columns={OPPORTUNITY_COLUMNS} chosen={columns} defaults={defaultColumns} onChange={setColumns} />
        </>
      }
      error={error}
      onErrorClose={() => setError(null)}
    >
      {table}
    </ListScreen>
  );
}
