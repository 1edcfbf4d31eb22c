import { HTMLSelect, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import { useEffect, useState, type ReactNode } from 'react';
import { FormDialog } from '@/components/FormDialog';
import { DATE_MASK } from '@/lib/masks';
import { RENEWAL_LABELS, emptyRenewalForm, validateRenewal, type RenewalForm } from '../model/renewal';
import { buildRenewalPayload, type RenewalPayload } from '../model/payload';
import { type SimNao } from '../model/form';
import { MaskedInput } from '@/components/MaskedInput';
import { SIM_NAO_OPTIONS } from '../shared/options';
import { ProbabilityOptions, RadioRow } from '../shared/fields';
import { FormField } from '@/components/FormField';

export interface RenewalDialogProps {
  isOpen: boolean;
  loading?: boolean;
  onSubmit: (payload: RenewalPayload) => void;
  onCancel: () => void;
  /** For tests: the instant the dates are judged against. */
  now?: () => Date;
}

type Key = keyof RenewalForm;
const REQUIRED: readonly Key[] = ['probabilityClosing', 'reason', 'projectStillInScope', 'lastVisitDate'];

/**
 * 'Solicitar renovação' (spec §4 and §5 "Renewal modal"): proposal sent?,
 * homologated?, next step, probability, reason, 'Projeto continua em pauta'
 * (Sim/Não) and the last visit date (dd/mm/yy, not in the future). Empty
 * required fields show '*Campo Obrigatório' once the user tries to send.
 */
export function RenewalDialog({ isOpen, loading = false, onSubmit, onCancel, now = () => new Date() }: RenewalDialogProps) {
  const [form, setForm] = useState<RenewalForm>(emptyRenewalForm);
  const [attempted, setAttempted] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({});
  useEffect(() => {
    if (isOpen) {
      setForm(emptyRenewalForm());
      setAttempted(false);
      setTouched({});
    }
  }, [isOpen]);

  const errors = validateRenewal(form, now());
  const errorOf = (key: Key) => (attempted || touched[key] ? errors[key] : undefined);
  const set = <K extends Key>(key: K, value: RenewalForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const touch = (key: Key) => () => setTouched((t) => ({ ...t, [key]: true }));

  /** A labelled field; a group of radios (`radios`) is tied to its label by aria-labelledby, not by `for`. */
  const group = (key: Key, children: ReactNode, className?: string, radios = false) => (
    <FormField
      className={className}
      label={radios ? <span id={`renewal-${key}-label`}>{RENEWAL_LABELS[key]}</span> : RENEWAL_LABELS[key]}
      labelFor={radios ? undefined : `renewal-${key}`}
      labelInfo={REQUIRED.includes(key) ? '*' : '(opcional)'}
      intent={errorOf(key) ? Intent.DANGER : Intent.NONE}
      helperText={errorOf(key)}
    >
      {children}
    </FormField>
  );
  const simNao = (key: 'proposalSent' | 'productHomologated' | 'projectStillInScope') =>
    group(
      key,
      <RadioRow
        name={`renewal-${key}`}
        testId={`renewal-${key}`}
        options={SIM_NAO_OPTIONS}
        value={form[key]}
        disabled={loading}
        onChoose={(v) => {
          set(key, v as SimNao);
          touch(key)();
        }}
      />,
      undefined,
      true,
    );

  return (
    <FormDialog
      isOpen={isOpen}
      title="Solicitar renovação"
      formLabel="Solicitar renovação"
      noValidate
      loading={loading}
      onCancel={onCancel}
      onSubmit={() => {
        setAttempted(true);
        if (loading || Object.keys(errors).length > 0) return;
        onSubmit(buildRenewalPayload(form));
      }}
      confirmText="Solicitar renovação"
      confirmIntent={Intent.PRIMARY}
      confirmTestId="renewal-submit"
    >
      <div className="op-grid">
        {simNao('proposalSent')}
        {simNao('productHomologated')}
        {group(
          'nextStep',
          <InputGroup
            id="renewal-nextStep"
            value={form.nextStep}
            disabled={loading}
            onValueChange={(v) => set('nextStep', v)}
          />,
          'op-span-all',
        )}
        {group(
          'probabilityClosing',
          <HTMLSelect
            id="renewal-probabilityClosing"
            value={String(form.probabilityClosing || '')}
            disabled={loading}
            onChange={(e) => set('probabilityClosing', Number(e.currentTarget.value) || 0)}
            onBlur={touch('probabilityClosing')}
          >
            <option value="">Selecione</option>
            <ProbabilityOptions />
          </HTMLSelect>,
        )}
        {group(
          'lastVisitDate',
          <MaskedInput
            id="renewal-lastVisitDate"
            mask={DATE_MASK}
            inputMode="numeric"
            placeholder="dd/mm/aa"
            value={form.lastVisitDate}
            disabled={loading}
            intent={errorOf('lastVisitDate') ? Intent.DANGER : Intent.NONE}
            onValueChange={(v) => set('lastVisitDate', v)}
            onBlur={touch('lastVisitDate')}
          />,
        )}
        {simNao('projectStillInScope')}
        {group(
          'reason',
          <TextArea
            id="renewal-reason"
            fill
            rows={3}
            value={form.reason}
            disabled={loading}
            intent={errorOf('reason') ? Intent.DANGER : Intent.NONE}
            onChange={(e) => set('reason', e.currentTarget.value)}
            onBlur={touch('reason')}
          />,
          'op-span-all',
        )}
      </div>
    </FormDialog>
  );
}
