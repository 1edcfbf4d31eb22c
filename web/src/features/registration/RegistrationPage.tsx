import { Button, H2, InputGroup, Intent, ProgressBar, Spinner } from '@blueprintjs/core';
import { ArrowLeftIcon, ArrowRightIcon } from '@blueprintjs/icons';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { LoadingModal } from '@/components/LoadingModal';
import { SuccessModal } from '@/components/SuccessModal';
import { normalizeCnpj } from '@/lib/cnpj';
import { lookupCnpj, type CompanyData } from '@/lib/cnpjApi';
import { onlyDigits } from '@/lib/format';
import { newIdempotencyKey } from '@/lib/http';
import { CNPJ_MASK, CNPJ_MASKED_LENGTH } from '@/lib/masks';
import {
  MSG_REGISTRATION_ERROR,
  REGISTRATION_RETRY_MS,
  useRegisterResale,
  registrationOutcome,
} from './api/registration';
import { MaskedInput } from '@/components/MaskedInput';
import { PersonFieldsForm } from '@/components/PersonFieldsForm';
import { cnpjError, phoneDigits, type PersonFields } from '@/components/personFields';
import { usePersonFields } from '@/components/usePersonFields';
import './registration.css';
import { FormField } from '@/components/FormField';
import { PublicPage } from '@/components/PublicPage';

export const STEP_TITLES = { 1: 'Crie seu usuário', 2: 'Sua revenda' } as const;

const PERSON_LABELS: Record<keyof PersonFields, string> = {
  name: 'Nome do contato',
  email: 'E-mail',
  phone: 'Telefone',
};

type Lookup = { cnpj: string; state: 'loading' | 'ok' | 'failed' } | null;

const EMPTY_COMPANY: CompanyData = { fantasyName: '', corporateName: '', street: '', cep: '', city: '', state: '' };

/** The read-only company fields of step 2, in display order. */
const COMPANY_FIELDS: readonly { key: keyof CompanyData; label: string }[] = [
  { key: 'corporateName', label: 'Razão social' },
  { key: 'fantasyName', label: 'Nome fantasia' },
  { key: 'street', label: 'Endereço' },
  { key: 'cep', label: 'CEP' },
  { key: 'city', label: 'Cidade' },
  { key: 'state', label: 'Estado' },
];

/**
 * Reseller sign-up `/Registration` (spec §2, §4 "Registration flow", §5
 * "Registration step 1/2", §8 "Reseller registration", "Company lookup").
 */
export function RegistrationPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const person = usePersonFields();
  const [cnpj, setCnpj] = useState('');
  const [cnpjTouched, setCnpjTouched] = useState(false);
  const [company, setCompany] = useState<CompanyData>(EMPTY_COMPANY);
  const [lookup, setLookup] = useState<Lookup>(null);
  const [submitting, setSubmitting] = useState(false);
  const register = useRegisterResale();
  const [waiting, setWaiting] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const retryTimer = useRef<number | undefined>(undefined);
  const attemptRef = useRef<{ payload: string; key: string } | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.clearTimeout(retryTimer.current);
    };
  }, []);

  const step1Valid = person.valid;

  // The company lookup runs by itself once the CNPJ has its 18 characters (spec §5).
  useEffect(() => {
    if (cnpj.length !== CNPJ_MASKED_LENGTH) {
      setLookup(null);
      setCompany(EMPTY_COMPANY);
      return;
    }
    if (cnpjError(cnpj)) {
      // The check digits already say no: no lookup spent (3 a minute).
      setLookup({ cnpj, state: 'failed' });
      setCompany(EMPTY_COMPANY);
      setCnpjTouched(true);
      return;
    }
    const controller = new AbortController();
    setLookup({ cnpj, state: 'loading' });
    void lookupCnpj(cnpj, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      if (result.ok) {
        setCompany(result.company);
        setLookup({ cnpj, state: 'ok' });
      } else {
        setCompany(EMPTY_COMPANY);
        setLookup({ cnpj, state: 'failed' });
        setError(result.message);
      }
    });
    return () => controller.abort();
  }, [cnpj]);

  const lookupOk = lookup?.state === 'ok' && lookup.cnpj === cnpj;
  const cnpjMessage = cnpjTouched || cnpj.length === CNPJ_MASKED_LENGTH ? cnpjError(cnpj) : null;
  const canFinish = step1Valid && lookupOk && !submitting && !waiting;

  function onNext(event: FormEvent) {
    event.preventDefault();
    if (!step1Valid) {
      person.touchAll();
      return;
    }
    setStep(2);
  }

  async function submit(attempt: 1 | 2) {
    const body = {
      email: person.values.email.trim(),
      phone: phoneDigits(person.values.phone),
      contactName: person.values.name.trim(),
      cnpj: normalizeCnpj(cnpj),
      fantasyName: company.fantasyName.trim() || 'N/C',
      corporateName: company.corporateName,
      street: company.street,
      state: company.state,
      cep: onlyDigits(company.cep),
      city: company.city,
    };
    // One key per sign-up: sent again unchanged (the rate limit's retry, a
    // second click after a lost answer), it is answered as the first.
    const serialized = JSON.stringify(body);
    if (attemptRef.current?.payload !== serialized) {
      attemptRef.current = { payload: serialized, key: newIdempotencyKey() };
    }
    const res = await register.mutateAsync({ body, idempotencyKey: attemptRef.current.key });
    if (!mounted.current) return;
    const outcome = registrationOutcome(res);
    if (outcome.kind === 'rate-limit' && attempt === 1) {
      // Spec §4: the loading screen for 60 seconds, then one more try.
      setWaiting(true);
      retryTimer.current = window.setTimeout(() => {
        void submit(2);
      }, REGISTRATION_RETRY_MS);
      return;
    }
    setWaiting(false);
    setSubmitting(false);
    switch (outcome.kind) {
      case 'success':
        setSuccess(outcome.message);
        break;
      case 'duplicate':
        setStep(1);
        setError(outcome.message);
        break;
      case 'duplicate-cnpj':
        // The company is registered: the CNPJ (this step) is what to change.
        setError(outcome.message);
        break;
      case 'rate-limit':
        setError(MSG_REGISTRATION_ERROR);
        break;
      default:
        setError(outcome.message);
    }
  }

  function onFinish(event: FormEvent) {
    event.preventDefault();
    if (!canFinish) return;
    setSubmitting(true);
    void submit(1);
  }

  return (
    <PublicPage
      name="registration"
      title="Cadastre sua revenda"
      outside={
        <>
          <LoadingModal isOpen={waiting} />
          <SuccessModal isOpen={success !== null} message={success ?? ''} onClose={() => navigate('/', { replace: true })} />
          <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
        </>
      }
    >
      <div className="registration-progress">
        <ProgressBar
          value={step === 1 ? 0.5 : 1}
          intent={Intent.PRIMARY}
          stripes={false}
          animate={false}
          aria-label={`Etapa ${step} de 2`}
          data-testid="registration-progress"
        />
        <span className="registration-step-text" aria-hidden="true">
          Etapa {step} de 2
        </span>
      </div>

      <form onSubmit={step === 1 ? onNext : onFinish} noValidate aria-labelledby="registration-step-title" data-testid={`registration-step-${step}`}>
        <H2 id="registration-step-title" className="registration-step-title" data-testid="step-title">
          {STEP_TITLES[step]}
        </H2>
        {step === 1 ? (
          <>
            <PersonFieldsForm idPrefix="registration" {...person.form} labels={PERSON_LABELS} />
            <div className="registration-actions">
              <Button
                type="submit"
                intent={Intent.PRIMARY}
                size="large"
                endIcon={<ArrowRightIcon />}
                text="Próximo"
                disabled={!step1Valid}
                data-testid="registration-next"
              />
            </div>
          </>
        ) : (
          <>
            <FormField
              label="CNPJ"
              labelFor="registration-cnpj"
              required
              intent={cnpjMessage ? Intent.DANGER : Intent.NONE}
              helperText={cnpjMessage ? <span data-testid="registration-cnpj-error">{cnpjMessage}</span> : undefined}
            >
              <MaskedInput
                id="registration-cnpj"
                name="cnpj"
                inputMode="text"
                autoCapitalize="characters"
                placeholder="00.000.000/0000-00"
                mask={CNPJ_MASK}
                maxLength={CNPJ_MASKED_LENGTH}
                value={cnpj}
                autoFocus
                intent={cnpjMessage ? Intent.DANGER : Intent.NONE}
                aria-invalid={!!cnpjMessage}
                onValueChange={setCnpj}
                onBlur={() => setCnpjTouched(true)}
                disabled={submitting || waiting}
                rightElement={lookup?.state === 'loading' ? <Spinner size={16} aria-label="Consultando CNPJ" /> : undefined}
                data-testid="registration-cnpj"
              />
            </FormField>
            <div className="registration-company" aria-live="polite">
              {COMPANY_FIELDS.map(({ key, label }) => (
                <FormField key={key} label={label} labelFor={`registration-${key}`}>
                  <InputGroup
                    id={`registration-${key}`}
                    name={key}
                    value={company[key]}
                    readOnly
                    tabIndex={-1}
                    data-testid={`registration-${key}`}
                  />
                </FormField>
              ))}
            </div>
            <div className="registration-actions">
              <Button
                variant="outlined"
                size="large"
                icon={<ArrowLeftIcon />}
                text="Voltar"
                onClick={() => setStep(1)}
                disabled={submitting || waiting}
                data-testid="registration-back"
              />
              <Button
                type="submit"
                intent={Intent.PRIMARY}
                size="large"
                text="Finalizar"
                disabled={!canFinish}
                loading={submitting && !waiting}
                data-testid="registration-finish"
              />
            </div>
          </>
        )}
      </form>

      <p className="auth-back">
        <Link to="/">Voltar ao login</Link>
      </p>
    </PublicPage>
  );
}
