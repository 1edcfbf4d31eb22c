import { Button, Checkbox, DialogBody, DialogFooter, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { Dialog } from '@/components/Dialog';
import { PeopleIcon } from '@blueprintjs/icons';
import { useMemo, useState } from 'react';
import { ErrorModal } from '@/components/ErrorModal';
import { SuccessModal } from '@/components/SuccessModal';
import { readSession } from '@/lib/session';
import type { OpportunityRecord } from '../api/opportunity';
import { useBrandRepresentatives, useReassign } from '../api/reassign';
import { ReadOnlyField, SectionCard } from '../shared/OpportunitySections';

export const REASSIGN_ERROR = 'Houve um erro. Tente novamente mais tarde!';
export const ALL_REPRESENTATIVES = 'Todos os representantes da marca';

/**
 * The responsible representatives of an opportunity (docs/deal-desk.md
 * "Routing") and, for a representative or support, 'Redistribuir': new
 * representatives with a reason, logged in the history.
 */
export function RepresentativesPanel({ record }: { record: OpportunityRecord }) {
  const roles = useMemo(() => readSession().permissions, []);
  const canReassign = roles.some((r) => r === 'REPRESENTATIVE' || r === 'SUPPORT') && record.status !== 'disapproved';
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reps = useBrandRepresentatives(open);
  const reassign = useReassign(record.id);
  const current = record.representative ?? [];
  const choices = (reps.data?.ok && reps.data.data?.representatives) || [];

  function start() {
    setChosen(current.map((r) => r.id));
    setReason('');
    setOpen(true);
  }

  async function submit() {
    const res = await reassign.mutateAsync({ ids: chosen, reason });
    if (res.ok) {
      setOpen(false);
      setMessage(res.data?.message ?? 'Representantes responsáveis atualizados com sucesso');
    } else if (res.status !== 401) {
      setError(res.status < 500 && res.message ? res.message : REASSIGN_ERROR);
    }
  }

  return (
    <SectionCard title="Responsáveis" testId="section-representatives">
      <dl className="op-readonly">
        <ReadOnlyField
          label="Representantes responsáveis"
          testId="detail-representatives"
          value={
            current.length === 0 ? (
              ALL_REPRESENTATIVES
            ) : (
              <ul className="op-representatives">
                {current.map((r) => (
                  <li key={r.id}>
                    {r.name} <span className="op-representative-email">({r.email})</span>
                  </li>
                ))}
              </ul>
            )
          }
        />
      </dl>
      {canReassign && (
        <div className="op-actions">
          <Button icon={<PeopleIcon />} variant="outlined" text="Redistribuir" onClick={start} data-testid="reassign-button" />
        </div>
      )}
      <Dialog isOpen={open} title="Redistribuir oportunidade" onClose={() => setOpen(false)} className="reassign-dialog">
        <DialogBody>
          <FormGroup label="Representantes responsáveis" labelInfo="(ao menos um)">
            {choices.map((r) => (
              <Checkbox
                key={r.id}
                label={`${r.name} (${r.email})`}
                checked={chosen.includes(r.id)}
                onChange={() => setChosen((c) => (c.includes(r.id) ? c.filter((x) => x !== r.id) : [...c, r.id]))}
              />
            ))}
          </FormGroup>
          <FormGroup label="Motivo" labelFor="reassign-reason" labelInfo="(obrigatório)">
            <TextArea
              id="reassign-reason"
              fill
              maxLength={2000}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={() => setOpen(false)} />
              <Button
                intent={Intent.PRIMARY}
                text="Redistribuir"
                loading={reassign.isPending}
                disabled={chosen.length === 0 || reason.trim() === ''}
                onClick={() => void submit()}
                data-testid="reassign-submit"
              />
            </>
          }
        />
      </Dialog>
      <SuccessModal isOpen={message !== null} message={message ?? ''} onClose={() => setMessage(null)} />
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </SectionCard>
  );
}
