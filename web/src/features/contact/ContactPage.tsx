import { Button, H2, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import { EnvelopeIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { SuccessModal } from '@/components/SuccessModal';
import { useBrand } from '@/lib/brand';
import { contactOutcome, useSendContact, type ContactRequest } from './api/contact';
import './contact.css';
import { FormField } from '@/components/FormField';
import { PublicPage } from '@/components/PublicPage';

/** Shown under a field left empty (the wording of the other forms, spec §5). */
export const MSG_REQUIRED = '*Campo Obrigatório';

const FIELDS: readonly { key: keyof ContactRequest; label: string }[] = [
  { key: 'fullName', label: 'Nome completo' },
  { key: 'email', label: 'E-mail' },
  { key: 'title', label: 'Assunto' },
  { key: 'description', label: 'Mensagem' },
];

const EMPTY: ContactRequest = { fullName: '', email: '', title: '', description: '' };

/** The fields left empty (spec §5 "Contact form": all four must be filled). */
export function missingContactFields(form: ContactRequest): (keyof ContactRequest)[] {
  return FIELDS.filter(({ key }) => form[key].trim() === '').map(({ key }) => key);
}

/** Static service hours (spec §2). */
export function ServiceHours() {
  const brand = useBrand();
  return (
    <section className="contact-info" aria-label="Atendimento">
      <H2 className="contact-heading">Horário de atendimento</H2>
      <ul>
        <li>Segunda a quinta-feira: 08:00 às 18:00</li>
        <li>Sexta-feira: 08:00 às 17:00</li>
      </ul>
      {brand.contact && (
        <>
          <H2 className="contact-heading">Telefones</H2>
          <ul>
            {brand.contact.phones.map((phone) => (
              <li key={phone}>
                <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
              </li>
            ))}
          </ul>
          <H2 className="contact-heading">Endereço</H2>
          <address className="contact-address">{brand.contact.address}</address>
        </>
      )}
    </section>
  );
}

/** Contact `/Contact` (spec §2, §5 "Contact form", §8 "Contact"). */
export function ContactPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState<ContactRequest>(EMPTY);
  const [flagged, setFlagged] = useState<(keyof ContactRequest)[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const send = useSendContact();
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  function set(key: keyof ContactRequest, value: string) {
    setForm((f) => ({ ...f, [key]: value }));
    if (value.trim() !== '') setFlagged((list) => list.filter((k) => k !== key));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    const missing = missingContactFields(form);
    setFlagged(missing);
    if (missing.length > 0) {
      document.getElementById(`contact-${missing[0]}`)?.focus();
      return;
    }
    setSubmitting(true);
    const res = await send.mutateAsync({
      fullName: form.fullName.trim(),
      email: form.email.trim(),
      title: form.title.trim(),
      description: form.description.trim(),
    });
    setSubmitting(false);
    const outcome = contactOutcome(res.status);
    if (outcome.ok) {
      setForm(EMPTY);
      setSuccess(outcome.message);
    } else {
      setError(outcome.message);
    }
  }

  const isFlagged = (key: keyof ContactRequest) => flagged.includes(key);
  const fieldProps = (key: keyof ContactRequest) => ({
    id: `contact-${key}`,
    name: key,
    value: form[key],
    disabled: submitting,
    intent: isFlagged(key) ? Intent.DANGER : Intent.NONE,
    'aria-invalid': isFlagged(key),
    'aria-describedby': isFlagged(key) ? `contact-${key}-error` : undefined,
    'data-testid': `contact-${key}`,
  });

  return (
    <PublicPage
      name="contact"
      title="Contato"
      outside={
        <>
          <SuccessModal isOpen={success !== null} message={success ?? ''} onClose={() => navigate('/', { replace: true })} />
          <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
        </>
      }
    >
      <div className="contact-layout">
        <form className="contact-form" onSubmit={onSubmit} noValidate aria-label="Fale conosco">
          {FIELDS.map(({ key, label }) => (
            <FormField
              key={key}
              label={label}
              labelFor={`contact-${key}`}
              required
              intent={isFlagged(key) ? Intent.DANGER : Intent.NONE}
              helperText={isFlagged(key) ? <span id={`contact-${key}-error`}>{MSG_REQUIRED}</span> : undefined}
            >
              {key === 'description' ? (
                <TextArea
                  {...fieldProps(key)}
                  fill
                  rows={6}
                  maxLength={5000}
                  onChange={(e) => set(key, e.currentTarget.value)}
                />
              ) : (
                <InputGroup
                  {...fieldProps(key)}
                  type={key === 'email' ? 'email' : 'text'}
                  inputMode={key === 'email' ? 'email' : undefined}
                  autoComplete={key === 'email' ? 'email' : key === 'fullName' ? 'name' : 'off'}
                  maxLength={key === 'email' ? 254 : 200}
                  onValueChange={(v) => set(key, v)}
                />
              )}
            </FormField>
          ))}
          <Button
            type="submit"
            intent={Intent.PRIMARY}
            size="large"
            icon={<EnvelopeIcon />}
            text="Enviar"
            loading={submitting}
            data-testid="contact-submit"
          />
        </form>
        <ServiceHours />
      </div>
      <p className="auth-back">
        <Link to="/">Voltar ao login</Link>
      </p>
    </PublicPage>
  );
}
