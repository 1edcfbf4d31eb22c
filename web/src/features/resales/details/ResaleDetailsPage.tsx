import { Button, Callout, Card, H2, Intent, Spinner, Tag } from '@blueprintjs/core';
import { DisableIcon, TickIcon } from '@blueprintjs/icons';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { statusClass, resaleStatusIntent, resaleStatusLabel } from '@/lib/status';
import { ConfirmationModal } from '@/components/ConfirmationModal';
import { ErrorModal } from '@/components/ErrorModal';
import { ReasonDialog } from '@/components/ReasonDialog';
import { SuccessModal } from '@/components/SuccessModal';
import { formatCEP, formatCNPJ, formatPhone } from '@/lib/format';
import { PANEL_BASE } from '@/lib/guards';
import { MAX_RESALE_REASON, MSG_RESALE_APPROVED, MSG_RESALE_DECISION_ERROR, MSG_RESALE_DISAPPROVED, decisionSucceeded, useDecideResale, getResale, toDetails, type ResaleDecision, type ResaleDetails } from '../api/resale';
import { resaleHistoryPath } from '../list/ResalesPage';
import '@/components/partners.css';
import { DetailsGrid, type DetailRow } from '@/components/DetailsGrid';
import { HistoryButtonLink, PageHeader } from '@/components/PageHeader';

export const NO_REASON = 'Sem Justificativa';
export const NOT_INFORMED = 'N/C';

/** The rows of the details, in display order: label and formatted value. */
export function detailRows(d: ResaleDetails): DetailRow[] {
  return [
    { key: 'corporateName', label: 'Razão social', value: d.corporateName },
    { key: 'fantasyName', label: 'Nome fantasia', value: d.fantasyName.trim() || NOT_INFORMED },
    { key: 'docNum', label: 'CNPJ', value: formatCNPJ(d.docNum) },
    { key: 'name', label: 'Contato', value: d.name },
    { key: 'email', label: 'E-mail', value: d.email },
    { key: 'phone', label: 'Telefone', value: formatPhone(d.phone) },
    { key: 'cep', label: 'CEP', value: formatCEP(d.cep) },
    { key: 'street', label: 'Endereço', value: d.street },
    { key: 'city', label: 'Cidade', value: d.city },
    { key: 'state', label: 'Estado', value: d.state },
  ];
}

/** The details before the server answers: nothing is shown but the id. */
function emptyDetails(id: string): ResaleDetails {
  return {
    id,
    status: '',
    docNum: '',
    corporateName: '',
    fantasyName: '',
    name: '',
    email: '',
    phone: '',
    cep: '',
    city: '',
    state: '',
    street: '',
    reason: '',
  };
}

export const MSG_RESALE_NOT_FOUND = 'Revenda não encontrada.';

/**
 * Resale details `/Painel/Resales/details?id=…` (spec §2 "Resale details", §4
 * "Resale status"). The link carries the company's id only and the screen
 * reads the company from GET /resale/{id}: the spec's screen reads every value
 * from the query string, which would put the contact's e-mail, phone, CNPJ and
 * address in browser history and proxies' logs (LGPD, docs/partners.md). An
 * older link with those values (an e-mail sent before) is rewritten to the id
 * alone, and its values are never shown.
 */
export function ResaleDetailsPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const id = params.get('id') ?? '';
  const extra = [...params.keys()].some((k) => k !== 'id');
  const [details, setDetails] = useState<ResaleDetails>(() => emptyDetails(id));
  const [loadError, setLoadError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const decideMutation = useDecideResale();
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // Personal data in an old link's query string leaves the address bar and this history entry.
    if (extra) setParams(id ? { id } : {}, { replace: true });
  }, [extra, id, setParams]);

  useEffect(() => {
    setDetails(emptyDetails(id));
    setLoadError(null);
    if (!id) {
      setLoadError(MSG_RESALE_NOT_FOUND);
      return;
    }
    const controller = new AbortController();
    void getResale(id, controller.signal).then((res) => {
      if (controller.signal.aborted) return;
      if (res.ok && res.data?.data) setDetails(toDetails(res.data.data));
      else if (res.status !== 401) setLoadError(res.status === 404 ? MSG_RESALE_NOT_FOUND : MSG_RESALE_DECISION_ERROR);
    });
    return () => controller.abort();
  }, [id]);

  const loading = details.status === '' && loadError === null;
  const inAnalysis = details.status === 'analysis' && details.id !== '';
  const toList = () => navigate(`${PANEL_BASE}/Resales`);

  async function decide(decision: ResaleDecision) {
    const res = await decideMutation.mutateAsync({ id: details.id, decision });
    setConfirming(false);
    setRejecting(false);
    if (decisionSucceeded(decision.status, res.status)) {
      setSuccess(decision.status === 'approved' ? MSG_RESALE_APPROVED : MSG_RESALE_DISAPPROVED);
    } else if (res.status !== 401) {
      // Spec §8 "Resale approve/reject": any failure shows the generic error modal.
      setError(MSG_RESALE_DECISION_ERROR);
    }
  }

  return (
    <section className="panel-screen resale-details-page" aria-labelledby="page-title">
      <PageHeader title="Detalhes da revenda" className="partners-header">
        {details.id && <HistoryButtonLink to={resaleHistoryPath(details.id)} testId="resale-history" />}
      </PageHeader>
      <Card className="partners-card" elevation={1}>
        <div className="partners-header">
          <H2 className="card-title">{details.corporateName || 'Revenda'}</H2>
          {details.status && (
            <Tag intent={resaleStatusIntent(details.status)} className={statusClass(details.status)} large round data-testid="resale-status">
              {resaleStatusLabel(details.status)}
            </Tag>
          )}
        </div>
        {loading && <Spinner size={24} aria-label="Carregando a revenda" data-testid="resale-loading" />}
        {loadError && (
          <Callout intent={Intent.WARNING} data-testid="resale-load-error">
            {loadError}
          </Callout>
        )}
        <DetailsGrid rows={detailRows(details)} testIdPrefix="resale" hidden={details.status === ''} />
        {details.status === 'disapproved' && (
          <Callout intent={Intent.DANGER} title="Razão da reprovação" className="details-reason">
            <span data-testid="resale-reason-text">{details.reason.trim() || NO_REASON}</span>
          </Callout>
        )}
        {inAnalysis && (
          <div className="details-actions">
            <Button
              intent={Intent.DANGER}
              variant="outlined"
              size="large"
              icon={<DisableIcon />}
              text="Reprovar"
              onClick={() => setRejecting(true)}
              data-testid="resale-reject"
            />
            <Button
              intent={Intent.SUCCESS}
              size="large"
              icon={<TickIcon />}
              text="Aprovar"
              onClick={() => setConfirming(true)}
              data-testid="resale-approve"
            />
          </div>
        )}
      </Card>

      <ConfirmationModal
        isOpen={confirming}
        title="Aprovar revenda"
        message={
          <p>
            Confirma a aprovação da revenda <strong>{details.corporateName}</strong>? O contato receberá um e-mail para
            criar a senha de acesso ao portal.
          </p>
        }
        confirmText="Aprovar"
        intent={Intent.SUCCESS}
        loading={decideMutation.isPending}
        onConfirm={() => void decide({ status: 'approved' })}
        onCancel={() => setConfirming(false)}
      />
      <ReasonDialog
        isOpen={rejecting}
        title="Reprovar revenda"
        confirmText="Reprovar"
        maxLength={MAX_RESALE_REASON}
        loading={decideMutation.isPending}
        onConfirm={(reason) => void decide({ status: 'disapproved', reason })}
        onCancel={() => setRejecting(false)}
      />
      <SuccessModal isOpen={success !== null} message={success ?? ''} onClose={toList} />
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </section>
  );
}
