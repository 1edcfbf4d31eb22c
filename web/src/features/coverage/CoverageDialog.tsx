import { Button, Checkbox, Classes, DialogBody, DialogFooter, FormGroup, HTMLSelect, Intent, Tag } from '@blueprintjs/core';
import { Dialog } from '@/components/Dialog';
import { useState } from 'react';
import type { CoverageEntry, CoverageResale } from './api/coverage';
import { REGIONS, changed, resaleLabel, toggleRegion, toggleState } from './model/coverage';

export interface CoverageDialogProps {
  entry: CoverageEntry;
  resales: CoverageResale[];
  saving: boolean;
  onSave: (states: string[], resaleIds: string[]) => void;
  onClose: () => void;
}

/** Edits one representative's coverage: the UFs by region, and the reseller accounts that override the UF. */
export function CoverageDialog({ entry, resales, saving, onSave, onClose }: CoverageDialogProps) {
  const [states, setStates] = useState<string[]>([...entry.states].sort());
  const [accounts, setAccounts] = useState<CoverageResale[]>(entry.resales);
  const ids = accounts.map((a) => a.id);
  const available = resales.filter((r) => !ids.includes(r.id));

  return (
    <Dialog isOpen title={`Cobertura de ${entry.name}`} onClose={onClose} className="coverage-dialog">
      <DialogBody>
        <p className={Classes.TEXT_MUTED}>
          Marque as UFs que este representante atende. Revendas nomeadas têm prioridade sobre a UF do cliente.
        </p>
        <div className="coverage-regions">
          {REGIONS.map((region) => {
            const all = region.states.every((uf) => states.includes(uf));
            const some = region.states.some((uf) => states.includes(uf));
            return (
              <fieldset key={region.name} className="coverage-region">
                <legend>
                  <Checkbox
                    checked={all}
                    indeterminate={some && !all}
                    label={region.name}
                    onChange={() => setStates((s) => toggleRegion(s, region.states))}
                    data-testid={`region-${region.name}`}
                  />
                </legend>
                <div className="coverage-ufs">
                  {region.states.map((uf) => (
                    <Checkbox
                      key={uf}
                      inline
                      label={uf}
                      checked={states.includes(uf)}
                      onChange={() => setStates((s) => toggleState(s, uf))}
                      data-testid={`uf-${uf}`}
                    />
                  ))}
                </div>
              </fieldset>
            );
          })}
        </div>
        <FormGroup label="Revendas atendidas" labelFor="coverage-resale" helperText="Opcional: têm prioridade sobre a UF.">
          <HTMLSelect
            id="coverage-resale"
            fill
            value=""
            disabled={available.length === 0}
            onChange={(e) => {
              const r = resales.find((x) => x.id === e.currentTarget.value);
              if (r) setAccounts((a) => [...a, r]);
            }}
          >
            <option value="">{available.length === 0 ? 'Nenhuma revenda a adicionar' : 'Adicionar revenda…'}</option>
            {available.map((r) => (
              <option key={r.id} value={r.id}>
                {resaleLabel(r)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <div className="coverage-accounts" data-testid="coverage-accounts">
          {accounts.map((a) => (
            <Tag key={a.id} onRemove={() => setAccounts((x) => x.filter((y) => y.id !== a.id))} minimal>
              {resaleLabel(a)}
            </Tag>
          ))}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text="Salvar"
              loading={saving}
              disabled={!changed(entry, states, ids)}
              onClick={() => onSave(states, ids)}
              data-testid="coverage-save"
            />
          </>
        }
      />
    </Dialog>
  );
}
