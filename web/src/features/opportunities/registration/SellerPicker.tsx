import { Button, Callout, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useCallback, useEffect, useState } from 'react';
import { MSG_SELLERS_FAILED, getCrmSellers, type CrmSeller } from '../../../lib/opportunityApi';
import { sellerLabel, sellerRequired } from '../../../lib/opportunityValidation';

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

/**
 * The seller picker (spec §2): sellers held in the CRM
 * (GET /opportunity/getSellersOnSalesforce). Labelled 'Vendedor Prime' and
 * optional for the company 'yep'; required otherwise.
 */
export function SellerPicker({ company, value, error, disabled, currentUserId, onChange }: SellerPickerProps) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const label = sellerLabel(company);
  const required = sellerRequired(company);

  const fetchSellers = useCallback(async () => {
    setLoad({ state: 'loading' });
    const res = await getCrmSellers();
    if (res.ok) setLoad({ state: 'ok', sellers: res.sellers });
    else if (res.status === 404) setLoad({ state: 'ok', sellers: [] });
    else if (res.status !== 401) setLoad({ state: 'failed' });
  }, []);

  useEffect(() => {
    void fetchSellers();
  }, [fetchSellers]);

  // A seller registering for themselves starts with their own name chosen.
  const sellers = load.state === 'ok' ? load.sellers : [];
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
          <Button variant="minimal" size="small" text="Tentar novamente" onClick={() => void fetchSellers()} />
        </Callout>
      )}
    </FormGroup>
  );
}
