import { Button, FormGroup, H1, InputGroup, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { SuccessModal } from '@/components/SuccessModal';
import * as authApi from '@/lib/authApi';
import { useBrand } from '@/lib/brand';

export const RECOVERY_SENT = 'Você receberá um email para redefinção.';
export const RECOVERY_NOT_FOUND = 'Não foi encontrado um usuário com o email solicitado!';
export const RECOVERY_ERROR = 'Houve um erro. Tente mais tarde!';

/** Password recovery `/recovery-password` (spec §2, §8 "Recovery"). */
export function RecoveryPage() {
  const brand = useBrand();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [success, setSuccess] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (email.trim() === '' || submitting) return;
    setSubmitting(true);
    const res = await authApi.resetPassword({
      company: brand.slug.toLowerCase(),
      redirect_url: `${window.location.origin}/reset-password`,
      email: email.trim(),
    });
    setSubmitting(false);
    if (res.status === 204) setSuccess(true);
    else if (res.message === 'Not Found Exception') setError(RECOVERY_NOT_FOUND);
    else setError(RECOVERY_ERROR);
  }

  return (
    <div className="recovery-page">
      <H1 className="auth-title">Recuperar senha</H1>
      <p className="auth-subtitle">Informe o e-mail cadastrado para receber o link de redefinição da sua senha.</p>
      <form onSubmit={onSubmit} noValidate aria-label="Recuperar senha">
        <FormGroup label="E-mail" labelFor="email">
          <InputGroup
            id="email"
            name="email"
            type="text"
            inputMode="email"
            autoComplete="email"
            value={email}
            onValueChange={setEmail}
            size="large"
          />
        </FormGroup>
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          size="large"
          fill
          text="Recuperar senha"
          disabled={email.trim() === ''}
          loading={submitting}
        />
      </form>
      <p className="auth-back">
        <Link to="/">Voltar ao login</Link>
      </p>
      <SuccessModal isOpen={success} message={RECOVERY_SENT} onClose={() => navigate('/', { replace: true })} />
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </div>
  );
}
