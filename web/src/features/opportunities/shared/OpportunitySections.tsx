import { Card, H2, HTMLTable } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { formatBRL, formatCEP, formatCNPJ, formatDate, formatPhone } from '@/lib/format';
import type { OpportunityRecord, ProductRecord } from '../api/opportunity';
import { FIELD_LABELS } from '../model/form';
import { PROBABILITY_LABELS, isProbability } from '@/lib/status';
import { LINE_GROUP_TITLES, agencyTypeLabel, originLabel, yesNoLabel } from './options';
import './opportunity.css';
import { EmailText } from '@/components/EmailText';

/** One read-only value with its label; empty values show 'N/C'. */
export function ReadOnlyField({
  label,
  value,
  testId,
  wide = false,
}: {
  label: string;
  value: ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  const empty = value === null || value === undefined || value === '';
  return (
    <div className={wide ? 'op-span-all' : undefined}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{empty ? 'N/C' : value}</dd>
    </div>
  );
}

/** A titled card (one section of the form or of the details). */
export function SectionCard({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/gi, '-')}`;
  return (
    <Card className="op-card" elevation={1} data-testid={testId} role="region" aria-labelledby={id}>
      <H2 id={id} className="card-title">
        {title}
      </H2>
      {children}
    </Card>
  );
}

export function probabilityLabel(value: number | null | undefined): string {
  return isProbability(value) ? PROBABILITY_LABELS[value] : 'N/C';
}

/** Lines of one group, read-only (part number, description, quantity, price, line total). */
export function ProductTable({ title, lines, testId }: { title: string; lines: ProductRecord[]; testId: string }) {
  return (
    <SectionCard title={title} testId={testId}>
      {lines.length === 0 ? (
        <p className="bp6-text-muted">Nenhum item informado.</p>
      ) : (
        <div className="op-table-wrap">
          <HTMLTable className="op-table" compact striped>
            <thead>
              <tr>
                <th>Part number</th>
                <th>Descrição</th>
                <th className="op-num">Quantidade</th>
                <th className="op-num">Preço</th>
                <th className="op-num">Total</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line, i) => (
                <tr key={`${line.partNumber}-${i}`}>
                  <td>{line.partNumber || 'N/C'}</td>
                  <td>{line.description || 'N/C'}</td>
                  <td className="op-num">{line.amount}</td>
                  <td className="op-num">{formatBRL(line.price)}</td>
                  <td className="op-num">{formatBRL(Math.round(line.amount * line.price * 100) / 100)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </SectionCard>
  );
}

/**
 * The read-only sections of an opportunity (spec §2 "Opportunity details":
 * the same sections as the registration form).
 */
export function OpportunitySections({ record, sellerLabel = 'Vendedor' }: { record: OpportunityRecord; sellerLabel?: string }) {
  const project = record.projects?.[0];
  const products = record.products ?? [];
  const main = products.filter((p) => !p.accessory && !p.competition);
  const accessories = products.filter((p) => p.accessory && !p.competition);
  const competitors = products.filter((p) => p.competition);
  return (
    <>
      <SectionCard title="Dados da empresa" testId="section-company">
        <dl className="op-readonly">
          <ReadOnlyField label={FIELD_LABELS.cnpj} value={formatCNPJ(record.cnpj)} testId="detail-cnpj" />
          <ReadOnlyField label={FIELD_LABELS.fantasyName} value={record.fantasyName} testId="detail-fantasyName" />
          <ReadOnlyField label={FIELD_LABELS.corporateName} value={record.corporateName} testId="detail-corporateName" />
          <ReadOnlyField label={FIELD_LABELS.street} value={record.street} />
          <ReadOnlyField label={FIELD_LABELS.cep} value={formatCEP(record.cep)} />
          <ReadOnlyField label={FIELD_LABELS.city} value={record.city} />
          <ReadOnlyField label={FIELD_LABELS.state} value={record.state} />
          <ReadOnlyField label="País" value={record.country} />
        </dl>
      </SectionCard>
      <SectionCard title="Contato do cliente" testId="section-contact">
        <dl className="op-readonly">
          <ReadOnlyField label={FIELD_LABELS.contact} value={record.contact} testId="detail-contact" />
          <ReadOnlyField label={FIELD_LABELS.phone} value={formatPhone(record.phone)} testId="detail-phone" />
          <ReadOnlyField label={FIELD_LABELS.email} value={record.email && <EmailText value={record.email} />} testId="detail-email" />
          <ReadOnlyField label={FIELD_LABELS.network} value={record.network} />
        </dl>
      </SectionCard>
      <SectionCard title="Informações do projeto" testId="section-project">
        <dl className="op-readonly">
          <ReadOnlyField label={FIELD_LABELS.aplication} value={project?.aplication} testId="detail-aplication" />
          <ReadOnlyField label={FIELD_LABELS.specification} value={project?.specification} />
          <ReadOnlyField label={FIELD_LABELS.homologated} value={yesNoLabel(project?.homologated)} />
          <ReadOnlyField label={FIELD_LABELS.haveCollector} value={yesNoLabel(project?.haveCollector)} />
          {project?.haveCollector && (
            <ReadOnlyField label={FIELD_LABELS.haveCollectorDescription} value={project.haveCollectorDescription} />
          )}
          <ReadOnlyField
            label={FIELD_LABELS.partner}
            value={project?.partner === false ? 'Não sei / Não informado' : yesNoLabel(project?.partner)}
          />
          {project?.partner && <ReadOnlyField label={FIELD_LABELS.partnerOwner} value={project.partnerOwner} />}
          {project?.partner && project.partnerName && (
            <ReadOnlyField label={FIELD_LABELS.partnerName} value={project.partnerName} />
          )}
          <ReadOnlyField label={FIELD_LABELS.opportunityType} value={agencyTypeLabel(project?.opportunityType)} />
          {project?.opportunityType === 'public' && (
            <ReadOnlyField label={FIELD_LABELS.opportunityTypeStatus} value={project.opportunityTypeStatus} />
          )}
          <ReadOnlyField
            label={FIELD_LABELS.conclusionDate}
            value={formatDate(project?.conclusionDate)}
            testId="detail-conclusionDate"
          />
          <ReadOnlyField
            label={FIELD_LABELS.opportunityOrigin}
            value={originLabel(project?.opportunityOrigin)}
            testId="detail-origin"
          />
          <ReadOnlyField
            label={FIELD_LABELS.probabilityClosing}
            value={probabilityLabel(record.probabilityClosing)}
            testId="detail-probability"
          />
          {project?.justification && <ReadOnlyField label={FIELD_LABELS.justification} value={project.justification} wide />}
          {project?.additionalInformation && (
            <ReadOnlyField label={FIELD_LABELS.additionalInformation} value={project.additionalInformation} wide />
          )}
        </dl>
      </SectionCard>
      <ProductTable title={LINE_GROUP_TITLES.product} lines={main} testId="section-products" />
      <ProductTable title={LINE_GROUP_TITLES.accessory} lines={accessories} testId="section-accessories" />
      <ProductTable title={LINE_GROUP_TITLES.competitor} lines={competitors} testId="section-competitors" />
      <SectionCard title="Valor estimado" testId="section-estimated">
        <div className="op-total">
          <span>Total estimado (sem concorrentes)</span>
          <span className="op-total-value" data-testid="detail-estimated">
            {formatBRL(record.estimated)}
          </span>
        </div>
      </SectionCard>
      <SectionCard title={sellerLabel} testId="section-seller">
        <dl className="op-readonly">
          <ReadOnlyField label={sellerLabel} value={record.seller} testId="detail-seller" />
          <ReadOnlyField label="Revenda" value={record.resale} testId="detail-resale" />
          <ReadOnlyField label="Termos aceitos" value={record.acceptedTerm ? 'Sim' : 'Não'} />
        </dl>
      </SectionCard>
    </>
  );
}
