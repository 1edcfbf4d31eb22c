import { Button, Callout, H1, Intent, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { PasswordFields, usePasswordPair } from '@/components/PasswordFields';
import { SuccessModal } from '@/components/SuccessModal';
import * as authApi from '@/lib/authApi';
import { PASSWORD_UPDATED, PASSWORD_UPDATE_ERROR } from '@/lib/password';

export const INVALID_LINK = 'Link de redefinição inválido ou expirado.';

/** `/reset-password?token=…`: the page the recovery e-mail links to. */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { password, confirmation, valid, fields } = usePasswordPair();
  const [submitting, setSubmitting] = useState(false);
  const [success, setSuccess] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The link is checked before any password is typed: a used or expired link says so at once.
  const check = useQuery({
    queryKey: ['reset-token', token],
    queryFn: ({ signal }) => authApi.checkResetToken(token, signal),
    enabled: token !== '',
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const linkInvalid = !token || check.data === 'invalid';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!valid || submitting || !token) return;
    setSubmitting(true);
    const res = await authApi.updatePasswordWithToken({ token, password, confirmation });
    setSubmitting(false);
    if (res.ok) setSuccess(true);
    else setError(res.message ?? PASSWORD_UPDATE_ERROR);
    // A link refused now (used meanwhile, expired) is not offered again.
    if (!res.ok) void check.refetch();
  }

  return (
    <div className="reset-page">
      <H1 className="auth-title">Redefinir senha</H1>
      {linkInvalid ? (
        <Callout intent={Intent.DANGER} role="alert" data-testid="reset-link-invalid">
          {INVALID_LINK} <Link to="/recovery-password">Pedir um novo link</Link>
        </Callout>
      ) : check.isPending ? (
        <div className="reset-checking" role="status">
          <Spinner size={24} aria-label="Verificando o link" />
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="Redefinir senha">
          <PasswordFields
            {...fields}
            disabled={submitting}
          />
          <Button type="submit" intent={Intent.PRIMARY} size="large" fill text="Finalizar" disabled={!valid} loading={submitting} />
        </form>
      )}
      <p className="auth-back">
        <Link to="/">Voltar ao login</Link>
      </p>
      <SuccessModal isOpen={success} message={PASSWORD_UPDATED} onClose={() => navigate('/', { replace: true })} />
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </div>
  );
}
