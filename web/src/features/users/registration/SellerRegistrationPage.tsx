import { Button, Card, Classes, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { PageHeader } from '@/components/PageHeader';
import { SuccessModal } from '@/components/SuccessModal';
import { PANEL_BASE } from '@/lib/guards';
import { sellerCreationOutcome, useCreateSeller } from '../api/users';
import { PersonFieldsForm } from '@/components/PersonFieldsForm';
import { phoneDigits, type PersonFields } from '@/components/personFields';
import { usePersonFields } from '@/components/usePersonFields';
import '@/components/partners.css';

const LABELS: Record<keyof PersonFields, string> = {
  name: 'Nome',
  email: 'E-mail corporativo',
  phone: 'Telefone corporativo',
};

/**
 * 'Cadastre seu vendedor' `/Painel/Users/registration` (spec §2, §5 "Seller
 * record", §8 "Seller creation"): the new seller receives an e-mail with a link
 * that sets the password.
 */
export function SellerRegistrationPage() {
  const navigate = useNavigate();
  const person = usePersonFields();
  const [submitting, setSubmitting] = useState(false);
  const create = useCreateSeller();
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const { values, valid } = person;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!valid || submitting) {
      person.touchAll();
      return;
    }
    setSubmitting(true);
    const res = await create.mutateAsync({
      name: values.name.trim(),
      email: values.email.trim(),
      phone: phoneDigits(values.phone),
    });
    setSubmitting(false);
    if (res.status === 401) return;
    const outcome = sellerCreationOutcome(res);
    if (outcome.ok) setSuccess(outcome.message);
    else setError(outcome.message);
  }

  return (
    <section className="panel-screen seller-registration-page" aria-labelledby="page-title">
      <PageHeader title="Cadastre seu vendedor" className="partners-header" />
      <Card className="partners-card partners-form" elevation={1}>
        <p className={Classes.TEXT_MUTED}>
          O vendedor receberá um e-mail com um link para criar a sua senha de acesso ao portal.
        </p>
        <form onSubmit={onSubmit} noValidate aria-label="Cadastre seu vendedor">
          <PersonFieldsForm idPrefix="seller" {...person.form} labels={LABELS} disabled={submitting} />
          <div className="details-actions">
            <Link to={`${PANEL_BASE}/Users`} className={`${Classes.BUTTON} ${Classes.OUTLINED}`} role="button">
              <span className={Classes.BUTTON_TEXT}>Cancelar</span>
            </Link>
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text="Finalizar"
              disabled={!valid}
              loading={submitting}
              data-testid="seller-submit"
            />
          </div>
        </form>
      </Card>
      <SuccessModal
        isOpen={success !== null}
        message={success ?? ''}
        onClose={() => navigate(`${PANEL_BASE}/Users`)}
      />
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </section>
  );
}
