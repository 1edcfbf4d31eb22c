import { Button, Callout, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { MSG_SELLERS_FAILED, getCrmSellers, type CrmSeller } from '../api/opportunity';
import { sellerLabel, sellerRequired } from '../model/form';

export interface SellerPickerProps {
  company: string;
  /** The chosen seller's CRM id ('' when none). */
  value: string;
  error?: string;
  disabled?: boolean;
  /** The signed-in user's id: a seller is preselected when the CRM lists them. */
  currentUserId?: string;
  onChange: (seller: { name: string; id: string }) => void;
}

type Load = { state: 'loading' } | { state: 'ok'; sellers: CrmSeller[] } | { state: 'failed' };

/** The CRM's sellers, cached for a minute (a 404 is an empty list; a 401 already left the screen). */
function useCrmSellers(): { load: Load; retry: () => void } {
  const q = useQuery({ queryKey: ['crm-sellers'], queryFn: () => getCrmSellers(), staleTime: 60_000 });
  const res = q.data;
  let load: Load = { state: 'loading' };
  if (q.isFetching && !res?.ok) load = { state: 'loading' };
  else if (res?.ok) load = { state: 'ok', sellers: res.sellers };
  else if (res?.status === 404) load = { state: 'ok', sellers: [] };
  else if (res && res.status !== 401) load = { state: 'failed' };
  return { load, retry: () => void q.refetch() };
}

/**
 * The seller picker (spec §2): sellers held in the CRM
 * (GET /opportunity/getSellersOnSalesforce). Labelled 'Vendedor Prime' and
 * optional for the company 'yep'; required otherwise.
 */
/** One empty list, so that the effect below does not run again on every render. */
const NO_SELLERS: never[] = [];

export function SellerPicker({ company, value, error, disabled, currentUserId, onChange }: SellerPickerProps) {
  const { load, retry } = useCrmSellers();
  const label = sellerLabel(company);
  const required = sellerRequired(company);

  // A seller registering for themselves starts with their own name chosen.
  const sellers = load.state === 'ok' ? load.sellers : NO_SELLERS;
  useEffect(() => {
    if (value || !currentUserId) return;
    const self = sellers.find((s) => s.user_id === currentUserId);
    if (self) onChange({ name: self.name, id: self.user_id });
  }, [sellers, currentUserId, value, onChange]);

  return (
    <FormGroup
      label={label}
      labelFor="seller"
      labelInfo={required ? '*' : '(opcional)'}
      intent={error ? Intent.DANGER : Intent.NONE}
      helperText={error}
    >
      <HTMLSelect
        id="seller"
        name="seller"
        value={value}
        disabled={disabled || load.state === 'loading'}
        onChange={(e) => {
          const chosen = sellers.find((s) => s.user_id === e.currentTarget.value);
          onChange({ name: chosen?.name ?? '', id: chosen?.user_id ?? '' });
        }}
        data-testid="seller-select"
      >
        <option value="">{load.state === 'loading' ? 'Carregando vendedores…' : 'Selecione'}</option>
        {sellers.map((s) => (
          <option key={s.user_id} value={s.user_id}>
            {s.company ? `${s.name} — ${s.company}` : s.name}
          </option>
        ))}
      </HTMLSelect>
      {load.state === 'failed' && (
        <Callout intent={Intent.DANGER} className="op-sellers-error" data-testid="sellers-error" compact>
          {MSG_SELLERS_FAILED}{' '}
          <Button variant="minimal" size="small" text="Tentar novamente" onClick={() => void retry()} />
        </Callout>
      )}
    </FormGroup>
  );
}
