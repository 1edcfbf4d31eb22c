import { Button, ButtonGroup, Classes, FormGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { FilterRemoveIcon, PersonIcon } from '@blueprintjs/icons';
import { IMaskInput } from 'react-imask';
import type { GeoCity, GeoState } from '../api/geo';
import { CNPJ_MASK } from '@/lib/masks';
import type { OpportunityFilters } from '../api/list';
import { STATUS_FILTER_LABELS, STATUS_FILTER_ORDER, type OpportunityStatus } from '@/lib/status';

export const DATE_MASK = '00/00/0000';
/** The CNPJ filter takes the alphanumeric CNPJ too (lib/cnpj.ts), upper-cased as typed. */
const CNPJ_DEFINITIONS = { '#': /[0-9A-Z]/ };
const upper = (ch: string) => ch.toUpperCase();
/** Under 'Estado' or 'Cidade' when the geography service failed (spec §8's list failure text). */
export const GEO_ERROR = 'Houve um erro. Tente novamente mais tarde!';

/** Text filters: debounced by the page (spec §9: 500 ms). */
export type TextFilter = 'name' | 'register' | 'date' | 'cnpj' | 'email' | 'fantasyName';

export interface FilterBarProps {
  filters: OpportunityFilters;
  states: GeoState[];
  cities: GeoCity[];
  /** Which geography lists failed to load: a note shows under the select. */
  geoError?: { states: boolean; cities: boolean };
  onText: (key: TextFilter, value: string) => void;
  onStatus: (status: OpportunityStatus[]) => void;
  onState: (uf: string) => void;
  onCity: (city: string) => void;
  onClear: () => void;
  /** Given for a representative: the 'Minhas' toggle (only those it answers for). */
  onMine?: (mine: boolean) => void;
}

const TEXT_FIELDS: { key: Exclude<TextFilter, 'date' | 'cnpj'>; label: string; placeholder: string }[] = [
  { key: 'name', label: 'Nome da oportunidade', placeholder: 'Buscar por nome' },
  { key: 'register', label: 'Registro', placeholder: 'Registro no CRM' },
  { key: 'email', label: 'E-mail', placeholder: 'E-mail do cliente' },
  { key: 'fantasyName', label: 'Nome fantasia', placeholder: 'Nome fantasia do cliente' },
];

/** The list's filter bar (spec §2): status tabs, text filters, CNPJ and date masked, state and city. */
export function FilterBar({
  filters,
  states,
  cities,
  geoError = { states: false, cities: false },
  onText,
  onStatus,
  onState,
  onCity,
  onClear,
  onMine,
}: FilterBarProps) {
  const toggle = (status: OpportunityStatus) =>
    onStatus(
      filters.status.includes(status) ? filters.status.filter((s) => s !== status) : [...filters.status, status],
    );
  const textField = (f: (typeof TEXT_FIELDS)[number]) => (
    <FormGroup key={f.key} label={f.label} labelFor={`filter-${f.key}`}>
      <InputGroup id={`filter-${f.key}`} value={filters[f.key]} placeholder={f.placeholder} onValueChange={(v) => onText(f.key, v)} />
    </FormGroup>
  );

  return (
    <div className="filter-bar" data-testid="filter-bar">
      <div className="status-tabs" role="group" aria-label="Status">
        <ButtonGroup className="status-tab-group">
          <Button
            text="Todos"
            active={filters.status.length === 0}
            aria-pressed={filters.status.length === 0}
            data-testid="status-all"
            onClick={() => onStatus([])}
          />
          {STATUS_FILTER_ORDER.map((status) => (
            <Button
              key={status}
              text={STATUS_FILTER_LABELS[status]}
              active={filters.status.includes(status)}
              aria-pressed={filters.status.includes(status)}
              data-testid={`status-${status}`}
              onClick={() => toggle(status)}
            />
          ))}
        </ButtonGroup>
        {onMine && (
          <Button
            className="mine-filter"
            icon={<PersonIcon />}
            text="Minhas"
            active={!!filters.mine}
            aria-pressed={!!filters.mine}
            data-testid="filter-mine"
            onClick={() => onMine(!filters.mine)}
          />
        )}
      </div>
      <div className="filter-fields">
        {TEXT_FIELDS.slice(0, 2).map(textField)}
        <FormGroup label="Data de cadastro" labelFor="filter-date">
          <IMaskInput
            id="filter-date"
            className={Classes.INPUT}
            mask={DATE_MASK}
            value={filters.date}
            placeholder="dd/mm/aaaa"
            inputMode="numeric"
            onAccept={(value: string) => onText('date', value)}
          />
        </FormGroup>
        <FormGroup label="CNPJ" labelFor="filter-cnpj">
          <IMaskInput
            id="filter-cnpj"
            className={Classes.INPUT}
            mask={CNPJ_MASK.mask as string}
            definitions={CNPJ_DEFINITIONS}
            prepareChar={upper}
            unmask
            value={filters.cnpj}
            placeholder="00.000.000/0000-00"
            autoCapitalize="characters"
            spellCheck={false}
            onAccept={(value: string) => onText('cnpj', value)}
          />
        </FormGroup>
        {TEXT_FIELDS.slice(2).map(textField)}
        <GeoSelect
          id="filter-state"
          label="Estado"
          failed={geoError.states}
          value={filters.state}
          anyText="Todos"
          options={states.map((st) => ({ key: st.sigla, value: st.sigla, label: `${st.nome} (${st.sigla})` }))}
          onChange={onState}
        />
        <GeoSelect
          id="filter-city"
          label="Cidade"
          failed={geoError.cities}
          value={filters.city}
          disabled={!filters.state}
          anyText="Todas"
          options={cities.map((c) => ({ key: String(c.id), value: c.nome, label: c.nome }))}
          onChange={onCity}
        />
      </div>
      <div className="filter-actions">
        <Button variant="minimal" icon={<FilterRemoveIcon />} text="Limpar filtros" onClick={onClear} data-testid="clear-filters" />
      </div>
    </div>
  );
}

interface GeoSelectProps {
  id: string;
  label: string;
  /** Its list failed to load: GEO_ERROR shows under it. */
  failed: boolean;
  value: string;
  disabled?: boolean;
  /** The empty choice ('Todos', 'Todas'). */
  anyText: string;
  options: { key: string; value: string; label: string }[];
  onChange: (value: string) => void;
}

/** 'Estado' or 'Cidade': a chosen value the list lacks (not loaded yet, or failed) stays a choice. */
function GeoSelect({ id, label, failed, value, disabled, anyText, options, onChange }: GeoSelectProps) {
  const errorId = `${id}-error`;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={failed ? Intent.WARNING : Intent.NONE}
      helperText={failed ? <span id={errorId}>{GEO_ERROR}</span> : undefined}
    >
      <HTMLSelect id={id} aria-describedby={failed ? errorId : undefined} fill value={value} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{anyText}</option>
        {value && !options.some((o) => o.value === value) && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.key} value={o.value}>
            {o.label}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}
