import {
  Button,
  Checkbox,
  FormGroup,
  H1,
  HTMLSelect,
  InputGroup,
  Intent,
  Spinner,
  TextArea,
} from '@blueprintjs/core';
import { useMemo, type ReactNode } from 'react';
import type { FactoryOpts } from 'imask';
import { useNavigate } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { FormField } from '@/components/FormField';
import { MissingFieldsModal } from '@/components/MissingFieldsModal';
import { PdfViewer } from '@/components/PdfViewer';
import { SuccessModal } from '@/components/SuccessModal';
import { useBrand } from '@/lib/brand';
import { formatBRL } from '@/lib/format';
import { PANEL_BASE } from '@/lib/guards';
import { CNPJ_MASK, DATE_MASK, PHONE_MASK } from '@/lib/masks';
import { MSG_CREATED } from '../api/opportunity';
import { FIELD_LABELS, PARTNER_SOFTWARE, sellerLabel, type FieldKey } from '../model/form';
import { readSession } from '@/lib/session';
import { MaskedInput } from '@/components/MaskedInput';
import { SectionCard } from '../shared/OpportunitySections';
import { ProbabilityOptions, RadioRow } from '../shared/fields';
import {
  AGENCY_STATUS_OPTIONS,
  AGENCY_TYPE_OPTIONS,
  ORIGIN_OPTIONS,
  PARTNER_OPTIONS,
  PARTNER_OWNER_OPTIONS,
  SIM_NAO_OPTIONS,
  YES_NO_OPTIONS,
  type Option,
} from '../shared/options';
import '../shared/opportunity.css';
import { useOpportunityForm } from './useOpportunityForm';
import { ProductLines } from './ProductLines';
import { SellerPicker } from './SellerPicker';

export const PAGE_TITLE = 'Registro de Oportunidades';

/** Guidelines PDF of the brand (docs/api.md). */
export function guidelinesUrl(slug: string): string {
  return `/brand-assets/${slug}/guidelines.pdf`;
}

/**
 * New opportunity (spec §2 "New opportunity", §3, §5 "New opportunity form",
 * §8 "Create opportunity"). Reached by RESALE and SELLER.
 */
export function RegistrationOpportunityPage() {
  const brand = useBrand();
  const navigate = useNavigate();
  const session = useMemo(() => readSession(), []);
  const isRepresentative = session.permissions.includes('REPRESENTATIVE');

  const f = useOpportunityForm(brand.slug);
  const { form, set, lookup, onCnpjBlur, totalCents, errorOf, touch, changeLine, addLine, removeLine, linesOf } = f;
  const { lineErrors, onSellerChange, onSubmit, submitting, missing, error, success, guidelinesOpen, setGuidelinesOpen } = f;

  const disabled = submitting;
  /** A labelled field; a group of radios (`group`) is tied to its label by aria-labelledby, not by `for`. */
  const field = (
    key: FieldKey,
    children: ReactNode,
    opts: { required?: boolean; className?: string; group?: boolean } = {},
  ) => (
    <FormField
      className={opts.className}
      label={opts.group ? <span id={`${key}-label`}>{FIELD_LABELS[key]}</span> : FIELD_LABELS[key]}
      labelFor={opts.group ? undefined : key}
      controlId={key}
      required={opts.required !== false}
      labelInfo={opts.required === false ? '(opcional)' : undefined}
      intent={errorOf(key) ? Intent.DANGER : Intent.NONE}
      helperText={errorOf(key)}
    >
      {children}
    </FormField>
  );
  const text = (key: FieldKey, opts: { required?: boolean; readOnly?: boolean; type?: string } = {}) =>
    field(
      key,
      // What the CNPJ lookup filled (a long Razão social, an address) wraps instead of being cut.
      opts.readOnly ? (
        <TextArea
          id={key}
          name={key}
          className="op-readonly-text"
          value={String(form[key] ?? '')}
          readOnly
          autoResize
          rows={1}
          fill
          disabled={disabled}
          intent={errorOf(key) ? Intent.DANGER : Intent.NONE}
        />
      ) : (
        <InputGroup
          id={key}
          name={key}
          type={opts.type ?? 'text'}
          value={String(form[key] ?? '')}
          disabled={disabled}
          intent={errorOf(key) ? Intent.DANGER : Intent.NONE}
          onValueChange={(v) => set(key, v as never)}
          onBlur={touch(key)}
        />
      ),
      { required: opts.required },
    );
  const radios = (key: FieldKey, options: readonly Option[]) =>
    field(
      key,
      <RadioRow
        name={key}
        testId={`radio-${key}`}
        options={options}
        value={String(form[key] ?? '')}
        disabled={disabled}
        onChoose={(v) => {
          set(key, v as never);
          touch(key)();
        }}
      />,
      { group: true },
    );
  const select = (key: FieldKey, options: readonly Option[], placeholder = 'Selecione') =>
    field(
      key,
      <HTMLSelect
        id={key}
        name={key}
        value={String(form[key] ?? '')}
        disabled={disabled}
        onChange={(e) => set(key, e.currentTarget.value as never)}
        onBlur={touch(key)}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </HTMLSelect>,
    );
  /** A masked input (phone, date) that keeps its text as typed. */
  const masked = (key: 'phone' | 'conclusionDate', mask: FactoryOpts, inputMode: 'tel' | 'numeric', placeholder: string) =>
    field(
      key,
      <MaskedInput
        id={key}
        name={key}
        mask={mask}
        inputMode={inputMode}
        placeholder={placeholder}
        value={form[key]}
        disabled={disabled}
        intent={errorOf(key) ? Intent.DANGER : Intent.NONE}
        onValueChange={(v) => set(key, v)}
        onBlur={touch(key)}
      />,
    );
  /** An optional free text across the grid. */
  const longText = (key: 'justification' | 'additionalInformation') =>
    field(
      key,
      <TextArea id={key} name={key} fill value={form[key]} disabled={disabled} onChange={(e) => set(key, e.currentTarget.value)} />,
      { required: false, className: 'op-span-all' },
    );

  return (
    <section className="panel-screen op-screen" aria-labelledby="page-title">
      <H1 id="page-title" className="page-title" data-testid="page-title">
        {PAGE_TITLE}
      </H1>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={PAGE_TITLE}>
        {isRepresentative && (
          <SectionCard title="Oportunidade" testId="section-name">
            {text('name', { required: false })}
          </SectionCard>
        )}

        <SectionCard title="Dados da empresa" testId="section-company">
          <div className="op-grid">
            {field(
              'cnpj',
              <MaskedInput
                id="cnpj"
                name="cnpj"
                mask={CNPJ_MASK}
                inputMode="text"
                autoCapitalize="characters"
                placeholder="00.000.000/0000-00"
                value={form.cnpj}
                disabled={disabled}
                intent={errorOf('cnpj') ? Intent.DANGER : Intent.NONE}
                onValueChange={(v) => set('cnpj', v)}
                onBlur={onCnpjBlur}
                rightElement={lookup?.state === 'loading' ? <Spinner size={16} aria-label="Consultando CNPJ" /> : undefined}
                data-testid="cnpj-input"
              />,
            )}
            {text('fantasyName', { readOnly: true, required: false })}
            {text('corporateName', { readOnly: true })}
            {text('street', { readOnly: true })}
            {text('cep', { readOnly: true })}
            {text('city', { readOnly: true })}
            {text('state', { readOnly: true })}
          </div>
        </SectionCard>

        <SectionCard title="Contato do cliente" testId="section-contact">
          <div className="op-grid">
            {text('contact')}
            {masked('phone', PHONE_MASK, 'tel', '(00) 00000-0000')}
            {text('email', { type: 'email' })}
            {radios('network', SIM_NAO_OPTIONS)}
          </div>
        </SectionCard>

        <SectionCard title="Informações do projeto" testId="section-project">
          <div className="op-grid">
            {text('aplication')}
            {text('specification')}
            {radios('homologated', YES_NO_OPTIONS)}
            {radios('haveCollector', YES_NO_OPTIONS)}
            {form.haveCollector === 'true' && text('haveCollectorDescription', { required: false })}
            {radios('partner', PARTNER_OPTIONS)}
            {form.partner === 'true' && select('partnerOwner', PARTNER_OWNER_OPTIONS)}
            {form.partner === 'true' && form.partnerOwner === PARTNER_SOFTWARE && text('partnerName')}
            {select('opportunityType', AGENCY_TYPE_OPTIONS)}
            {form.opportunityType === 'public' && select('opportunityTypeStatus', AGENCY_STATUS_OPTIONS)}
            {masked('conclusionDate', DATE_MASK, 'numeric', 'dd/mm/aa')}
            {select('opportunityOrigin', ORIGIN_OPTIONS, 'N/C')}
            {field(
              'probabilityClosing',
              <HTMLSelect
                id="probabilityClosing"
                name="probabilityClosing"
                value={String(form.probabilityClosing)}
                disabled={disabled}
                onChange={(e) => set('probabilityClosing', Number(e.currentTarget.value))}
              >
                <ProbabilityOptions />
              </HTMLSelect>,
            )}
            {longText('justification')}
            {longText('additionalInformation')}
          </div>
        </SectionCard>

        <SectionCard title="Produtos" testId="section-products">
          {(['product', 'accessory', 'competitor'] as const).map((kind) => (
            <ProductLines
              key={kind}
              kind={kind}
              lines={linesOf(kind)}
              errors={lineErrors}
              disabled={disabled}
              onChange={changeLine}
              onAdd={() => addLine(kind)}
              onRemove={removeLine}
            />
          ))}
          <div className="op-total" aria-live="polite">
            <span>Total estimado (sem concorrentes)</span>
            <span className="op-total-value" data-testid="estimated-total">
              {formatBRL(totalCents / 100)}
            </span>
          </div>
        </SectionCard>

        <SectionCard title={sellerLabel(brand.slug)} testId="section-seller">
          <SellerPicker
            company={brand.slug}
            value={form.sellerSalesforceId}
            error={errorOf('seller')}
            disabled={disabled}
            currentUserId={session.permissions.includes('SELLER') ? session.userid : undefined}
            onChange={onSellerChange}
          />
        </SectionCard>

        <SectionCard title="Termos" testId="section-terms">
          <FormGroup
            intent={errorOf('acceptedTerm') ? Intent.DANGER : Intent.NONE}
            helperText={errorOf('acceptedTerm') ? <span id="acceptedTerm-help">{errorOf('acceptedTerm')}</span> : undefined}
          >
            <div className="op-terms">
              <Checkbox
                id="acceptedTerm"
                checked={form.acceptedTerm}
                disabled={disabled}
                label="Li e aceito as diretrizes de registro de oportunidades"
                onChange={(e) => set('acceptedTerm', e.currentTarget.checked)}
                aria-required
                aria-invalid={errorOf('acceptedTerm') ? true : undefined}
                aria-describedby={errorOf('acceptedTerm') ? 'acceptedTerm-help' : undefined}
                data-testid="accepted-term"
              />
              <Button variant="minimal" intent={Intent.PRIMARY} text="Ler as diretrizes" onClick={() => setGuidelinesOpen(true)} />
            </div>
          </FormGroup>
        </SectionCard>

        <div className="op-actions">
          <Button
            type="submit"
            intent={Intent.PRIMARY}
            size="large"
            text="Finalizar registro"
            loading={submitting}
            data-testid="submit-registration"
          />
        </div>
      </form>

      <PdfViewer
        isOpen={guidelinesOpen}
        title="Diretrizes de registro de oportunidades"
        src={guidelinesUrl(brand.slug)}
        onClose={() => setGuidelinesOpen(false)}
      />
      <MissingFieldsModal isOpen={missing !== null} fields={missing ?? []} onClose={f.closeMissing} />
      <ErrorModal isOpen={error.open} message={error.message} onClose={error.close} />
      <SuccessModal
        isOpen={success}
        message={MSG_CREATED}
        onClose={() => navigate(`${PANEL_BASE}/Opportunities`)}
      />
    </section>
  );
}
