import { Button, Callout, H1, HTMLSelect, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { HistoryIcon } from '@blueprintjs/icons';
import { useNavigate, useParams } from 'react-router';
import { ConfirmationModal } from '@/components/ConfirmationModal';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingModal } from '@/components/LoadingModal';
import { ReasonDialog } from '@/components/ReasonDialog';
import { SuccessModal } from '@/components/SuccessModal';
import { useBrand } from '@/lib/brand';
import { formatDate } from '@/lib/format';
import { PANEL_BASE } from '@/lib/guards';
import { FIELD_LABELS, sellerLabel } from '../model/form';
import { type RenewalPayload } from '../model/payload';
import { statusClass, statusIntent, statusLabel } from '@/lib/status';
import { OpportunitySections, ReadOnlyField, SectionCard } from '../shared/OpportunitySections';
import '../shared/opportunity.css';
import { ValidityCue } from '../shared/validity';
import { ProbabilityOptions } from '../shared/fields';
import { RenewalDialog } from './RenewalDialog';
import { ConflictsPanel } from './ConflictsPanel';
import { ConflictOverrideDialog } from './ConflictOverrideDialog';
import { RepresentativesPanel } from './RepresentativesPanel';
import { useOpportunityDetails, reasonLabel } from './useOpportunityDetails';
import { FormField } from '@/components/FormField';
import { EmailText } from '@/components/EmailText';
export { allowedActions, reasonLabel, shownProbability } from './useOpportunityDetails';

export const PAGE_TITLE = 'Detalhes da oportunidade';

/**
 * Opportunity details (spec §2 "Opportunity details", §4 transitions, §8
 * messages): read-only sections, the representative's edit, approval,
 * refusal, and the renewal request and decision.
 */
export function OpportunityDetailsPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const brand = useBrand();
  const d = useOpportunityDetails(id);
  const { record, status, can, isRep, name, nameError, probability, busy, dialog, setDialog, success, failure } = d;
  const reasonTitle = reasonLabel(status);
  const toList = () => navigate(`${PANEL_BASE}/Opportunities`);
  // The decisions and the renewal request the user may take, in the order shown.
  const actions: { text: string; intent: Intent; onClick: () => void; testId: string }[] = [
    ...(can.decide
      ? [
          { text: 'Reprovar', intent: Intent.DANGER, onClick: () => setDialog('refuse'), testId: 'refuse-button' },
          { text: 'Aprovar', intent: Intent.SUCCESS, onClick: d.onApproveClick, testId: 'approve-button' },
        ]
      : []),
    ...(can.decideRenewal
      ? [
          { text: 'Recusar Renovação', intent: Intent.DANGER, onClick: () => setDialog('refuseRenewal'), testId: 'refuse-renewal-button' },
          { text: 'Aprovar Renovação', intent: Intent.SUCCESS, onClick: () => setDialog('approveRenewal'), testId: 'approve-renewal-button' },
        ]
      : []),
    ...(can.requestRenewal
      ? [{ text: 'Solicitar renovação', intent: Intent.PRIMARY, onClick: () => setDialog('renewal'), testId: 'request-renewal-button' }]
      : []),
  ];

  return (
    <section className="panel-screen op-screen" aria-labelledby="page-title">
      <div className="op-header">
        <H1 id="page-title" className="page-title" data-testid="page-title">
          {PAGE_TITLE}
        </H1>
        {record && (
          <Tag intent={statusIntent(status)} className={statusClass(status)} size="large" data-testid="detail-status">
            {statusLabel(status)}
          </Tag>
        )}
        {record && <ValidityCue subject={{ ...record, status }} />}
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
              {isRep && <ReadOnlyField label="E-mail do usuário" value={record.userEmail && <EmailText value={record.userEmail} />} testId="detail-user-email" />}
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
          <RepresentativesPanel record={{ ...record, status }} />

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
                  value={formatDate(record.lastVisitDate) || record.lastVisitDate}
                />
                <ReadOnlyField label="A proposta foi enviada?" value={record.proposalSent || 'N/C'} />
                <ReadOnlyField label="O produto foi homologado?" value={record.productHomologated || 'N/C'} />
                <ReadOnlyField label="Próximo passo" value={record.nextStep || 'N/C'} />
              </dl>
            </SectionCard>
          )}

          {isRep && (
            <SectionCard title="Oportunidade" testId="section-edit">
              <div className="op-grid">
                <FormField
                  label={FIELD_LABELS.name}
                  labelFor="opportunity-name"
                  intent={nameError ? Intent.DANGER : Intent.NONE}
                  helperText={nameError ?? undefined}
                >
                  <InputGroup
                    id="opportunity-name"
                    inputRef={d.nameRef}
                    value={name}
                    readOnly={!can.edit}
                    disabled={busy}
                    intent={nameError ? Intent.DANGER : Intent.NONE}
                    onValueChange={d.setName}
                  />
                </FormField>
                <FormField label={FIELD_LABELS.probabilityClosing} labelFor="opportunity-probability">
                  <HTMLSelect
                    id="opportunity-probability"
                    value={String(probability)}
                    disabled={!can.edit || busy}
                    onChange={(e) => d.setProbability(Number(e.currentTarget.value))}
                  >
                    <ProbabilityOptions />
                  </HTMLSelect>
                </FormField>
              </div>
              {can.edit && (
                <div className="op-actions">
                  <Button
                    intent={Intent.PRIMARY}
                    variant="outlined"
                    text="Atualizar registro"
                    disabled={!d.changed || busy}
                    onClick={d.onUpdateClick}
                    data-testid="update-button"
                  />
                </div>
              )}
            </SectionCard>
          )}

          <ConflictsPanel record={record} />

          <div className="op-actions" data-testid="detail-actions">
            {actions.map((a) => (
              <Button key={a.testId} intent={a.intent} text={a.text} disabled={busy} onClick={a.onClick} data-testid={a.testId} />
            ))}
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
            onConfirm={d.approve}
          />
          <ConflictOverrideDialog isOpen={dialog === 'override'} message={d.conflictMessage} loading={busy} onCancel={() => setDialog(null)} onConfirm={d.approveOverriding} />
          <ReasonDialog
            isOpen={dialog === 'refuse'}
            title="Reprovar oportunidade"
            confirmText="Reprovar"
            loading={busy}
            onCancel={() => setDialog(null)}
            onConfirm={d.refuse}
          />
          <RenewalDialog
            isOpen={dialog === 'renewal'}
            loading={busy}
            onCancel={() => setDialog(null)}
            onSubmit={(payload: RenewalPayload) => d.askRenewal(payload)}
          />
          <ConfirmationModal
            isOpen={dialog === 'approveRenewal'}
            title="Aprovar Renovação"
            message={`Deseja aprovar a renovação da oportunidade "${record.name}"?`}
            confirmText="Aprovar Renovação"
            intent={Intent.SUCCESS}
            loading={busy}
            onCancel={() => setDialog(null)}
            onConfirm={() => d.decideRenewal(true)}
          />
          <ReasonDialog
            isOpen={dialog === 'refuseRenewal'}
            title="Recusar Renovação"
            confirmText="Recusar Renovação"
            loading={busy}
            onCancel={() => setDialog(null)}
            onConfirm={(reason) => d.decideRenewal(false, reason)}
          />
        </>
      )}

      <LoadingModal isOpen={d.loading} />
      <ErrorModal isOpen={d.loadError !== null} message={d.loadError ?? ''} onClose={toList} />
      <ErrorModal
        isOpen={failure.open}
        message={failure.message}
        onClose={d.closeFailure}
      />
      <SuccessModal isOpen={success.open} message={success.message} onClose={toList} />
    </section>
  );
}
