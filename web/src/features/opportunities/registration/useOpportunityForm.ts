import { Intent } from '@blueprintjs/core';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { showToast } from '@/components/toaster';
import { MSG_CNPJ_INVALID, lookupCnpj } from '@/lib/cnpjApi';
import { newIdempotencyKey } from '@/lib/http';
import { CNPJ_MASKED_LENGTH } from '@/lib/masks';
import {
  MSG_CREATE_FAILED,
  MSG_SESSION_ENDED,
  createFailureMessage,
  useCreateOpportunity,
} from '../api/opportunity';
import { buildCreatePayload } from '../model/payload';
import { emptyLine, emptyOpportunityForm, estimatedTotalCents, type FieldKey, type LineKind, type OpportunityForm, type ProductLineForm } from '../model/form';
import { isValidCnpj } from '@/lib/cnpj';
import { validateOpportunity } from '../model/validation';
import { useModalMessage } from '../shared/useModalMessage';

/** The company lookup of a CNPJ; a failure other than 'invalid CNPJ' (429, network, 5xx) may be retried. */
type Lookup = { cnpj: string; state: 'loading' | 'ok' | 'failed'; retryable?: boolean } | null;

export const COMPANY_FIELDS = ['fantasyName', 'corporateName', 'street', 'cep', 'city', 'state'] as const;

/**
 * The new-opportunity form's state and behaviour (spec §5 "New opportunity
 * form", §8 "Create opportunity"): the fields, the automatic company lookup,
 * validation and when its messages show, the product lines and the submission
 * with its idempotency key. The page only lays it out.
 */
export function useOpportunityForm(company: string) {
  const navigate = useNavigate();
  const [form, setForm] = useState<OpportunityForm>(emptyOpportunityForm);
  const [lookup, setLookup] = useState<Lookup>(null);
  const [attempted, setAttempted] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<string, boolean>>>({});
  const [missing, setMissing] = useState<string[] | null>(null);
  /** Labels waiting for the fields to be marked: the first invalid field gets the focus first. */
  const [pendingMissing, setPendingMissing] = useState<string[] | null>(null);
  const error = useModalMessage();
  const [success, setSuccess] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const create = useCreateOpportunity();
  const [guidelinesOpen, setGuidelinesOpen] = useState(false);
  const submittingRef = useRef(false);
  /** The key of the last attempt and the payload it carried: an identical retry reuses it. */
  const attemptRef = useRef<{ payload: string; key: string } | null>(null);

  const set = useCallback(<K extends keyof OpportunityForm>(key: K, value: OpportunityForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
  }, []);

  // ---- Company lookup: automatic at 18 characters ---------------------------------
  const lookupAbort = useRef<AbortController | null>(null);
  const showError = error.show;
  const runLookup = useCallback(
    (cnpj: string) => {
      lookupAbort.current?.abort();
      const controller = new AbortController();
      lookupAbort.current = controller;
      setLookup({ cnpj, state: 'loading' });
      void lookupCnpj(cnpj, controller.signal).then((result) => {
        if (controller.signal.aborted) return;
        if (result.ok) {
          setForm((f) => (f.cnpj === cnpj ? { ...f, ...result.company } : f));
          setLookup({ cnpj, state: 'ok' });
        } else {
          setLookup({ cnpj, state: 'failed', retryable: result.reason !== 'invalid' });
          showError(result.message);
        }
      });
    },
    [showError],
  );

  useEffect(() => {
    const cnpj = form.cnpj;
    if (cnpj.length !== CNPJ_MASKED_LENGTH) {
      setLookup(null);
      setForm((f) =>
        COMPANY_FIELDS.some((k) => f[k] !== '') ? { ...f, ...Object.fromEntries(COMPANY_FIELDS.map((k) => [k, ''])) } : f,
      );
      return;
    }
    if (!isValidCnpj(cnpj)) {
      // Saves one of the 3 lookups a minute: the check digits already say no.
      setLookup({ cnpj, state: 'failed' });
      showError(MSG_CNPJ_INVALID);
      return;
    }
    runLookup(cnpj);
    return () => lookupAbort.current?.abort();
  }, [form.cnpj, runLookup, showError]);

  /**
   * Leaving the CNPJ field retries a lookup that failed for a reason other than
   * an invalid CNPJ (429, network, server): the text did not change, so the
   * automatic lookup would not run again. Not while the error modal is open (it
   * takes the focus when it opens).
   */
  const onCnpjBlur = () => {
    touch('cnpj')();
    if (lookup?.state === 'failed' && lookup.retryable && lookup.cnpj === form.cnpj && !error.open) runLookup(form.cnpj);
  };

  const lookupOk = lookup?.state === 'ok' && lookup.cnpj === form.cnpj;
  const validation = useMemo(
    () => validateOpportunity(form, { company: company, cnpjLookupOk: lookupOk }),
    [form, company, lookupOk],
  );
  const totalCents = estimatedTotalCents(form.lines);

  /** The message of a field, once the user tried to submit or left the field. */
  const errorOf = (key: FieldKey): string | undefined =>
    attempted || touched[key] ? validation.errors[key] : undefined;
  const touch = (key: string) => () => setTouched((t) => (t[key] ? t : { ...t, [key]: true }));

  // After a failed attempt the fields are marked; focus the first one, then open the modal, which
  // gives the focus back to that field (and the page scrolls there) when it closes.
  useEffect(() => {
    if (!pendingMissing) return;
    const group = document.querySelector('.op-screen .bp6-form-group.bp6-intent-danger');
    group?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    setMissing(pendingMissing);
    setPendingMissing(null);
  }, [pendingMissing]);

  // ---- Product lines -----------------------------------------------------------------
  const changeLine = useCallback((line: ProductLineForm) => {
    setForm((f) => ({ ...f, lines: f.lines.map((l) => (l.key === line.key ? line : l)) }));
  }, []);
  const addLine = (kind: LineKind) => setForm((f) => ({ ...f, lines: [...f.lines, emptyLine(kind)] }));
  const removeLine = (key: string) => setForm((f) => ({ ...f, lines: f.lines.filter((l) => l.key !== key) }));
  const linesOf = (kind: LineKind) => form.lines.filter((l) => l.kind === kind);
  const lineErrors = attempted ? validation.lineErrors : {};

  const onSellerChange = useCallback((s: { name: string; id: string }) => {
    setForm((f) => ({ ...f, seller: s.name, sellerSalesforceId: s.id }));
  }, []);

  // ---- Submit ---------------------------------------------------------------------------
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (submittingRef.current) return;
    setAttempted(true);
    if (!validation.valid) {
      setPendingMissing(validation.missing);
      return;
    }
    const payload = buildCreatePayload(form, company);
    const serialized = JSON.stringify(payload);
    if (attemptRef.current?.payload !== serialized) {
      attemptRef.current = { payload: serialized, key: newIdempotencyKey() };
    }
    submittingRef.current = true;
    setSubmitting(true);
    const res = await create.mutateAsync({ payload, idempotencyKey: attemptRef.current.key });
    submittingRef.current = false;
    setSubmitting(false);
    if (res.ok) {
      setSuccess(true);
      return;
    }
    if (res.status === 401) {
      showToast({ message: MSG_SESSION_ENDED, intent: Intent.WARNING });
      navigate('/', { replace: true });
      return;
    }
    const labels = (res.errors ?? []).filter((e): e is string => typeof e === 'string');
    if (res.status === 400 && labels.length > 0) {
      setMissing(labels);
      return;
    }
    error.show(createFailureMessage(res) ?? MSG_CREATE_FAILED);
  }


  return {
    form,
    set,
    lookup,
    onCnpjBlur,
    validation,
    totalCents,
    errorOf,
    touch,
    changeLine,
    addLine,
    removeLine,
    linesOf,
    lineErrors,
    onSellerChange,
    onSubmit,
    submitting,
    missing,
    closeMissing: () => setMissing(null),
    error,
    success,
    guidelinesOpen,
    setGuidelinesOpen,
  };
}
