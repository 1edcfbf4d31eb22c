import { Callout, Intent, Tag } from '@blueprintjs/core';
import { Link } from 'react-router';
import { formatBRL, formatCNPJ, formatDate } from '@/lib/format';
import { PANEL_BASE } from '@/lib/guards';
import { readSession } from '@/lib/session';
import { statusClass, statusIntent, statusLabel } from '@/lib/status';
import type { ConflictKind, ConflictRecord, OpportunityRecord } from '../api/opportunity';
import { useConflictOverrides } from '../api/useConflictOverrides';
import { SectionCard } from '../shared/OpportunitySections';
import './conflicts.css';

export const KIND_LABELS: Record<ConflictKind, string> = {
  cnpj: 'Mesmo CNPJ',
  cnpj_root: 'Mesma raiz de CNPJ',
  name: 'Mesma razão social',
};

export const PARTNER_NOTICE =
  'Existe outro registro para este cliente. A decisão sobre qual registro vale cabe ao representante da marca.';

const DAY = 24 * 60 * 60 * 1000;

/** Days a registration waited in analysis: until its approval, or until now while undecided. */
export function daysInAnalysis(createdAt: string, approveDate: string | null | undefined, now: Date = new Date()): number {
  const end = approveDate ? new Date(approveDate) : now;
  return Math.max(0, Math.floor((end.getTime() - new Date(createdAt).getTime()) / DAY));
}

/** A registration side by side: this one (current, no kind) or a conflicting one. */
interface Column extends Omit<ConflictRecord, 'kind' | 'products'> {
  current: boolean;
  kind?: ConflictKind;
  products: NonNullable<ConflictRecord['products']>;
}

/**
 * The other open registrations of this customer at the brand (docs/deal-desk.md,
 * "Conflicts"), side by side with this one: who registered first, status,
 * value, products, days in analysis, and any override of the rule that the
 * first approved registration wins. Staff see the registrations; a reseller or
 * a seller only a neutral notice that another one exists.
 */
export function ConflictsPanel({ record }: { record: OpportunityRecord }) {
  const roles = readSession().permissions;
  const staff = roles.includes('REPRESENTATIVE') || roles.includes('SUPPORT');
  const overrides = useConflictOverrides(record.id, staff && (record.conflicts?.length ?? 0) > 0);
  if (!staff) {
    return record.hasConflicts ? (
      <Callout intent={Intent.PRIMARY} className="op-conflict-notice" data-testid="conflict-notice">
        {PARTNER_NOTICE}
      </Callout>
    ) : null;
  }
  const conflicts = record.conflicts ?? [];
  if (conflicts.length === 0) return null;
  const columns: Column[] = [
    {
      id: record.id,
      current: true,
      cnpj: record.cnpj,
      corporateName: record.corporateName,
      resale: record.resale || record.userName,
      status: record.status,
      createdAt: record.createdAt,
      approveDate: record.approveDate,
      estimated: record.estimated,
      products: (record.products ?? []).map((p) => ({ partNumber: p.partNumber, description: p.description, amount: p.amount })),
    },
    ...conflicts.map((c) => ({ ...c, current: false, products: c.products ?? [] })),
  ].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const firstId = columns[0].id;
  const n = conflicts.length;
  return (
    <SectionCard title="Conflitos de registro" testId="section-conflicts">
      <Callout intent={Intent.WARNING} compact>
        {n === 1 ? 'Há outro registro aberto' : `Há ${n} outros registros abertos`} para este cliente nesta marca. Vale o
        primeiro registro aprovado.
      </Callout>
      {overrides.map((o) => (
        <Callout key={o.at + o.reason} intent={Intent.DANGER} compact className="op-conflict-override" data-testid="conflict-override">
          {o.by ? (
            <>
              O registro <Link to={`${PANEL_BASE}/Opportunities/${o.by}`}>{o.by}</Link> foi aprovado apesar deste em{' '}
              {formatDate(o.at)}. Motivo: {o.reason}
            </>
          ) : (
            <>
              Aprovado apesar de registro anterior em {formatDate(o.at)}. Motivo: {o.reason}
            </>
          )}
        </Callout>
      ))}
      <div className="op-conflicts-grid" data-testid="conflict-list">
        {columns.map((c) => (
          <article key={c.id} className={`op-conflict${c.current ? ' op-conflict-current' : ''}`} data-testid="conflict-card">
            <header className="op-conflict-head">
              {c.current ? (
                <strong>Este registro</strong>
              ) : (
                <Link to={`${PANEL_BASE}/Opportunities/${c.id}`}>Ver registro</Link>
              )}
              {c.id === firstId && (
                <Tag intent={Intent.SUCCESS} minimal data-testid="conflict-first">
                  Primeiro registro
                </Tag>
              )}
              {c.kind && <Tag minimal>{KIND_LABELS[c.kind]}</Tag>}
            </header>
            <dl className="op-conflict-facts">
              <dt>Revenda</dt>
              <dd>{c.resale || 'N/C'}</dd>
              <dt>Cliente</dt>
              <dd>
                {c.corporateName}
                <br />
                <span className="bp6-text-muted">{formatCNPJ(c.cnpj)}</span>
              </dd>
              <dt>Registrado em</dt>
              <dd>{formatDate(c.createdAt)}</dd>
              <dt>Status</dt>
              <dd>
                <Tag minimal intent={statusIntent(c.status)} className={statusClass(c.status)}>
                  {statusLabel(c.status)}
                </Tag>
              </dd>
              <dt>Valor estimado</dt>
              <dd>{formatBRL(c.estimated)}</dd>
              <dt>Dias em análise</dt>
              <dd>{daysInAnalysis(c.createdAt, c.approveDate)}</dd>
              <dt>Produtos</dt>
              <dd>
                {c.products.length === 0
                  ? 'N/C'
                  : c.products.map((p) => (
                      <div key={p.partNumber + p.description}>
                        {p.amount} × {p.partNumber} {p.description && `— ${p.description}`}
                      </div>
                    ))}
              </dd>
            </dl>
          </article>
        ))}
      </div>
    </SectionCard>
  );
}
