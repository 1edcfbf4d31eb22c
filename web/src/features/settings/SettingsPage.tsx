import { Button, Card, H1, H2, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { PasswordFields, usePasswordPair } from '@/components/PasswordFields';
import { SuccessModal } from '@/components/SuccessModal';
import { useUpdatePassword } from './api/useUpdatePassword';
import { PANEL_BASE } from '@/lib/guards';
import { PASSWORD_UPDATED, PASSWORD_UPDATE_ERROR } from '@/lib/password';


/** Settings (spec §2 "Settings", §5 "Password", §8 "Password update"). */
export function SettingsPage() {
  const navigate = useNavigate();
  const { password, confirmation, valid, fields } = usePasswordPair();
  const [submitting, setSubmitting] = useState(false);
  const update = useUpdatePassword();
  const [success, setSuccess] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toOpportunities = () => navigate(`${PANEL_BASE}/Opportunities`);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!valid || submitting) return;
    setSubmitting(true);
    const res = await update.mutateAsync({ password, confirmation });
    setSubmitting(false);
    if (res.ok) setSuccess(true);
    else if (res.status !== 401) setError(res.message || PASSWORD_UPDATE_ERROR);
  }

  return (
    <section className="panel-screen" aria-labelledby="page-title">
      <H1 id="page-title" className="page-title" data-testid="page-title">
        Configurações
      </H1>
      <Card className="settings-card" elevation={1}>
        <H2 className="card-title">Atualizar a sua senha</H2>
        <form onSubmit={onSubmit} noValidate aria-label="Atualizar a sua senha">
          <PasswordFields
            {...fields}
            passwordLabel="Senha"
            confirmationLabel="Confirmação de senha"
            disabled={submitting}
          />
          <Button type="submit" intent={Intent.PRIMARY} text="Finalizar" disabled={!valid} loading={submitting} />
        </form>
      </Card>
      <SuccessModal isOpen={success} message={PASSWORD_UPDATED} onClose={toOpportunities} />
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={toOpportunities} />
    </section>
  );
}
