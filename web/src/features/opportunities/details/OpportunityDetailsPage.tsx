import { Button, Callout, FormGroup, H1, HTMLSelect, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { HistoryIcon } from '@blueprintjs/icons';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmationModal } from '../../../components/ConfirmationModal';
import { ErrorModal } from '../../../components/ErrorModal';
import { LoadingModal } from '../../../components/LoadingModal';
import { SuccessModal } from '../../../components/SuccessModal';
import { useBrand } from '../../../lib/brand';
import { formatDate, formatDateShort } from '../../../lib/format';
import { PANEL_BASE } from '../../../lib/guards';
import type { HttpResponse } from '../../../lib/http';
import {
  MSG_APPROVED,
  MSG_GENERIC,
  MSG_REFUSED,
  MSG_RENEWAL_APPROVED,
  MSG_RENEWAL_REFUSED,
  MSG_RENEWAL_REQUESTED,
  MSG_UPDATED,
  approveFailureMessage,
  approveOpportunity,
  decideRenewal,
  getOpportunity,
  refuseFailureMessage,
  refuseOpportunity,
  renewalDecisionFailureMessage,
  renewalRequestFailureMessage,
  requestRenewal,
  updateFailureMessage,
  updateOpportunity,
  updateProbability,
  type OpportunityRecord,
} from '../../../lib/opportunityApi';
import { FIELD_LABELS, approvalNameError, sellerLabel, type RenewalPayload } from '../../../lib/opportunityValidation';
import { readSession } from '../../../lib/session';
import {
  DEFAULT_PROBABILITY,
  PROBABILITY_LABELS,
  PROBABILITY_VALUES,
  isProbability,
  statusIntent,
  statusLabel,
} from '../../../lib/status';
import { OpportunitySections, ReadOnlyField, SectionCard } from '../shared/OpportunitySections';
import { useModalMessage } from '../shared/useModalMessage';
import '../shared/opportunity.css';
import { ReasonDialog } from '../../../components/ReasonDialog';
import { RenewalDialog } from './RenewalDialog';

export const PAGE_TITLE = 'Detalhes da oportunidade';

/** Statuses in which a representative may edit the name and the probability (docs/opportunity-lifecycle.md). */
const EDITABLE = ['analysis', 'approved', 'renovation', 'awaiting_renovation'];

/** Label of the reason by status (spec §2): null when no reason is shown. */
export function reasonLabel(status: string): string | null {
  if (status === 'disapproved') return 'Motivo da reprovação';
  if (status === 'awaiting_renovation') return 'Motivo da solicitação de renovação';
  return null;
}

/** What the signed-in roles may do with an opportunity in a status (spec §4, §6). */
export function allowedActions(roles: readonly string[], status: string) {
  const rep = roles.includes('REPRESENTATIVE');
  const owner = roles.includes('RESALE') || roles.includes('SELLER');
  return {
    edit: rep && EDITABLE.includes(status),
    decide: rep && status === 'analysis',
    decideRenewal: rep && status === 'awaiting_renovation',
    requestRenewal: owner && (status === 'renovation' || status === 'expired'),
  };
}

/**
 * The probability the select shows for a stored value: one of the four bands, or
 * the default (25) for anything else (the list shows such a value as 'N/C').
 */
export function shownProbability(stored: number | null | undefined): number {
  return isProbability(stored) ? stored : DEFAULT_PROBABILITY;
}

type DialogKind = 'approve' | 'refuse' | 'renewal' | 'approveRenewal' | 'refuseRenewal' | null;
interface Conflict {
  id: string;
  record?: OpportunityRecord;
}

/**
 * Opportunity details (spec §2 "Opportunity details", §4 transitions, §8
 * messages): read-only sections, the representative's edit, approval,
 * refusal, and the renewal request and decision.
 */
export function OpportunityDetailsPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const brand = useBrand();
  const roles = useMemo(() => readSession().permissions, []);
  const isRep = roles.includes('REPRESENTATIVE');

  const [record, setRecord] = useState<OpportunityRecord | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [probability, setProbability] = useState<number>(DEFAULT_PROBABILITY);
  const [nameError, setNameError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DialogKind>(null);
  const [busy, setBusy] = useState(false);
  const success = useModalMessage();
  const failure = useModalMessage();
  const [conflicts, setConflicts] = useState<Conflict[]>([]);
  const renewalOpened = useRef(false);
  const nameRef = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    setLoading(true);
    const res = await getOpportunity(id);
    setLoading(false);
    if (res.record) {
      setRecord(res.record);
      setName(res.record.name);
      setProbability(shownProbability(res.record.probabilityClosing));
    } else if (res.status !== 401) {
      // Spec §8: the server's message for a 4xx, else 'Houve um erro. Tente novamente mais tarde!'.
      setLoadError(res.status < 500 && res.message ? res.message : MSG_GENERIC);
    }
  }, [id]);

  useEffect(() => {
    void load();
  }, [load]);

  const status = record?.status ?? '';
  const can = allowedActions(roles, status);

  // ?renovation=true opens the renewal dialog on load (when the user may ask for it).
  useEffect(() => {
    if (!record || renewalOpened.current) return;
    renewalOpened.current = true;
    if (params.get('renovation') === 'true' && can.requestRenewal) setDialog('renewal');
  }, [record, params, can.requestRenewal]);

  // The other open registrations of the same customer, for representatives.
  const conflictIds = useMemo(() => (isRep ? (record?.conflicts ?? []) : []), [isRep, record]);
  useEffect(() => {
    let active = true;
    setConflicts(conflictIds.map((cid) => ({ id: cid })));
    if (conflictIds.length === 0) return;
    void Promise.all(conflictIds.slice(0, 20).map((cid) => getOpportunity(cid))).then((answers) => {
      if (!active) return;
      setConflicts(conflictIds.map((cid, i) => ({ id: cid, record: answers[i]?.record })));
    });
    return () => {
      active = false;
    };
  }, [conflictIds]);

  /** Runs a call; success → the success modal, failure → its message (a 401 already left the screen). */
  async function run(
    call: () => Promise<HttpResponse<unknown>>,
    ok: string,
    failureOf: (res: HttpResponse<unknown>) => string | null,
  ) {
    setBusy(true);
    const res = await call();
    setBusy(false);
    setDialog(null);
    if (res.ok) success.show(ok);
    else if (res.status !== 401) failure.show(failureOf(res) ?? MSG_GENERIC);
  }

  function onApproveClick() {
    const err = approvalNameError(name);
    setNameError(err);
    if (err) {
      nameRef.current?.focus();
      return;
    }
    setDialog('approve');
  }

  function onUpdateClick() {
    if (!record) return;
    const err = approvalNameError(name);
    setNameError(err);
    if (err) {
      nameRef.current?.focus();
      return;
    }
    const nameChanged = name.trim() !== record.name;
    void run(
      () => (nameChanged ? updateOpportunity(record.id, name, probability) : updateProbability(record.id, probability)),
      MSG_UPDATED,
      updateFailureMessage,
    );
  }

  // Compared with what the select showed on load: a stored value outside the bands shows as 25 and is no change.
  const changed =
    !!record && (name.trim() !== record.name || probability !== shownProbability(record.probabilityClosing));
  const reasonTitle = reasonLabel(status);
  const toList = () => navigate(`${PANEL_BASE}/Opportunities`);

  return (
    <section className="panel-screen op-screen" aria-labelledby="page-title">
      <div className="op-header">
        <H1 id="page-title" className="page-title" data-testid="page-title">
          {PAGE_TITLE}
        </H1>
        {record && (
          <Tag intent={statusIntent(status)} size="large" data-testid="detail-status">
            {statusLabel(status)}
          </Tag>
        )}
      </div>

      {record && (
        <>
          <SectionCard title="Registro" testId="section-register">
            <dl className="op-readonly">
              <ReadOnlyField label="ID de registro (CRM)" value={record.register || 'Sem registro'} testId="detail-register" />
              <ReadOnlyField label="Registrado em" value={formatDate(record.createdAt)} />
              <ReadOnlyField
                label="Data de aprovação"
                value={status === 'approved' ? formatDate(record.approveDate) : 'Sem Data'}
              />
              <ReadOnlyField label="Válida até" value={formatDate(record.validUntil)} />
              {isRep && <ReadOnlyField label="Registrado por" value={record.userName} testId="detail-user-name" />}
              {isRep && <ReadOnlyField label="E-mail do usuário" value={record.userEmail} testId="detail-user-email" />}
            </dl>
            <div className="op-actions">
              <Button
                variant="outlined"
                icon={<HistoryIcon />}
                text="Histórico"
                onClick={() => navigate(`${PANEL_BASE}/History/${record.id}?type=Opportunities`)}
              />
            </div>
          </SectionCard>

          {reasonTitle && record.reason && (
            <Callout
              className="op-reason"
              intent={status === 'disapproved' ? Intent.DANGER : Intent.WARNING}
              title={reasonTitle}
              data-testid="detail-reason"
            >
              {record.reason}
            </Callout>
          )}

          {(record.lastVisitDate || record.projectStillInScope) && status === 'awaiting_renovation' && (
            <SectionCard title="Solicitação de renovação" testId="section-renewal">
              <dl className="op-readonly">
                <ReadOnlyField label="Solicitada em" value={formatDate(record.requestRenovationAt)} />
                <ReadOnlyField label="Projeto continua em pauta" value={record.projectStillInScope} />
                <ReadOnlyField
                  label="Data da última visita"
                  value={formatDateShort(record.lastVisitDate) || record.lastVisitDate}
                />
              </dl>
            </SectionCard>
          )}

          {isRep && (
            <SectionCard title="Oportunidade" testId="section-edit">
              <div className="op-grid">
                <FormGroup
                  label={FIELD_LABELS.name}
                  labelFor="opportunity-name"
                  intent={nameError ? Intent.DANGER : Intent.NONE}
                  helperText={nameError ?? undefined}
                >
                  <InputGroup
                    id="opportunity-name"
                    inputRef={nameRef}
                    value={name}
                    readOnly={!can.edit}
                    disabled={busy}
                    intent={nameError ? Intent.DANGER : Intent.NONE}
                    onValueChange={(v) => {
                      setName(v);
                      if (nameError && v.trim()) setNameError(null);
                    }}
                  />
                </FormGroup>
                <FormGroup label={FIELD_LABELS.probabilityClosing} labelFor="opportunity-probability">
                  <HTMLSelect
                    id="opportunity-probability"
                    value={String(probability)}
                    disabled={!can.edit || busy}
                    onChange={(e) => setProbability(Number(e.currentTarget.value))}
                  >
                    {PROBABILITY_VALUES.map((p) => (
                      <option key={p} value={p}>
                        {PROBABILITY_LABELS[p]}
                      </option>
                    ))}
                  </HTMLSelect>
                </FormGroup>
              </div>
              {can.edit && (
                <div className="op-actions">
                  <Button
                    intent={Intent.PRIMARY}
                    variant="outlined"
                    text="Atualizar registro"
                    disabled={!changed || busy}
                    onClick={onUpdateClick}
                    data-testid="update-button"
                  />
                </div>
              )}
            </SectionCard>
          )}

          {isRep && conflictIds.length > 0 && (
            <SectionCard title="Outros registros deste cliente" testId="section-conflicts">
              <Callout intent={Intent.WARNING} compact>
                Há {conflictIds.length === 1 ? 'outro registro aberto' : `${conflictIds.length} outros registros abertos`}{' '}
                para o mesmo CNPJ.
              </Callout>
              <ul className="op-conflicts" data-testid="conflict-list">
                {conflicts.map((c) => (
                  <li key={c.id}>
                    <Link to={`${PANEL_BASE}/Opportunities/${c.id}`}>{c.record?.name || c.id}</Link>
                    {c.record && (
                      <>
                        {' '}
                        <Tag minimal intent={statusIntent(c.record.status)}>
                          {statusLabel(c.record.status)}
                        </Tag>{' '}
                        <span className="bp6-text-muted">
                          {c.record.resale || c.record.userName} · {formatDate(c.record.createdAt)}
                        </span>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </SectionCard>
          )}

          <div className="op-actions" data-testid="detail-actions">
            {can.decide && (
              <>
                <Button
                  intent={Intent.DANGER}
                  text="Reprovar"
                  disabled={busy}
                  onClick={() => setDialog('refuse')}
                  data-testid="refuse-button"
                />
                <Button
                  intent={Intent.SUCCESS}
                  text="Aprovar"
                  disabled={busy}
                  onClick={onApproveClick}
                  data-testid="approve-button"
                />
              </>
            )}
            {can.decideRenewal && (
              <>
                <Button
                  intent={Intent.DANGER}
                  text="Recusar Renovação"
                  disabled={busy}
                  onClick={() => setDialog('refuseRenewal')}
                  data-testid="refuse-renewal-button"
                />
                <Button
                  intent={Intent.SUCCESS}
                  text="Aprovar Renovação"
                  disabled={busy}
                  onClick={() => setDialog('approveRenewal')}
                  data-testid="approve-renewal-button"
                />
              </>
            )}
            {can.requestRenewal && (
              <Button
                intent={Intent.PRIMARY}
                text="Solicitar renovação"
                disabled={busy}
                onClick={() => setDialog('renewal')}
                data-testid="request-renewal-button"
              />
            )}
          </div>

          <OpportunitySections record={record} sellerLabel={sellerLabel(brand.slug)} />

          <ConfirmationModal
            isOpen={dialog === 'approve'}
            title="Aprovar oportunidade"
            message={`Deseja aprovar a oportunidade "${name.trim()}"?`}
            confirmText="Aprovar"
            intent={Intent.SUCCESS}
            loading={busy}
            onCancel={() => setDialog(null)}
            onConfirm={() =>
              void run(() => approveOpportunity(record.id, name, probability), MSG_APPROVED, approveFailureMessage)
            }
          />
          <ReasonDialog
            isOpen={dialog === 'refuse'}
            title="Reprovar oportunidade"
            confirmText="Reprovar"
            loading={busy}
            onCancel={() => setDialog(null)}
            onConfirm={(reason) =>
              void run(() => refuseOpportunity(record.id, reason), MSG_REFUSED, refuseFailureMessage)
            }
          />
          <RenewalDialog
            isOpen={dialog === 'renewal'}
            loading={busy}
            onCancel={() => setDialog(null)}
            onSubmit={(payload: RenewalPayload) =>
              void run(() => requestRenewal(record.id, payload), MSG_RENEWAL_REQUESTED, renewalRequestFailureMessage)
            }
          />
          <ConfirmationModal
            isOpen={dialog === 'approveRenewal'}
            title="Aprovar Renovação"
            message={`Deseja aprovar a renovação da oportunidade "${record.name}"?`}
            confirmText="Aprovar Renovação"
            intent={Intent.SUCCESS}
            loading={busy}
            onCancel={() => setDialog(null)}
            onConfirm={() =>
              void run(
                () => decideRenewal(record.id, { approve: true, name: record.name, probabilityClosing: record.probabilityClosing }),
                MSG_RENEWAL_APPROVED,
                renewalDecisionFailureMessage,
              )
            }
          />
          <ReasonDialog
            isOpen={dialog === 'refuseRenewal'}
            title="Recusar Renovação"
            confirmText="Recusar Renovação"
            loading={busy}
            onCancel={() => setDialog(null)}
            onConfirm={(reason) =>
              void run(
                () =>
                  decideRenewal(record.id, {
                    approve: false,
                    reason,
                    name: record.name,
                    probabilityClosing: record.probabilityClosing,
                  }),
                MSG_RENEWAL_REFUSED,
                renewalDecisionFailureMessage,
              )
            }
          />
        </>
      )}

      <LoadingModal isOpen={loading} />
      <ErrorModal isOpen={loadError !== null} message={loadError ?? ''} onClose={toList} />
      <ErrorModal
        isOpen={failure.open}
        message={failure.message}
        onClose={() => {
          failure.close();
          void load(); // the status may have moved meanwhile
        }}
      />
      <SuccessModal isOpen={success.open} message={success.message} onClose={toList} />
    </section>
  );
}
