import { Button, Callout, Checkbox, FormGroup, H1, InputGroup, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { PasswordVisibilityToggle } from '@/components/PasswordFields';
import { signIn } from '@/lib/auth';
import { useBrand } from '@/lib/brand';
import { decideForPath, firstLanding, hasValidSession, type GuardDenial } from '@/lib/guards';
import { returnPathFrom } from '@/lib/returnPath';
import { readSession } from '@/lib/session';
import { EmailNotice } from './EmailNotice';

export const INVALID_CREDENTIALS = 'Usuário ou senha inválidos';
export const GENERIC_ERROR = 'Houve um erro. Tente mais tarde!';
export const FORBIDDEN_NOTICE = 'Você não tem permissão para acessar essa página.';

/** Login page `/` (spec §2 "Public routes"). */
export function LoginPage() {
  const brand = useBrand();
  const navigate = useNavigate();
  const location = useLocation();
  const denial = (location.state as { denied?: GuardDenial } | null)?.denied;
  // The screen the user was sent here from (an e-mail's link, an expired session), when they may open it.
  const next = returnPathFrom(location.search);
  const landing = (fallback: string) => {
    const s = readSession();
    return next && decideForPath(s, next.split(/[?#]/)[0], brand.slug).kind === 'allow' ? next : fallback;
  };

  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [keepConnection, setKeepConnection] = useState(true);
  const [submitting, setSubmitting] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const [throttled, setThrottled] = useState('');
  const [errorOpen, setErrorOpen] = useState(false);

  // A stored, valid session goes straight to the panel, unless the guard has
  // just sent the user here from a screen of the panel they may not open.
  const session = readSession();
  if (denial !== 'forbidden' && hasValidSession(session, brand.slug) && session.refreshToken) {
    return <Navigate to={landing(firstLanding(session.permissions))} replace />;
  }

  const canSubmit = username.trim() !== '' && password.trim() !== '' && !submitting;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setSubmitting(true);
    setInvalid(false);
    setThrottled('');
    const result = await signIn(username, password, keepConnection);
    setSubmitting(false);
    if (result.kind === 'ok') navigate(landing(result.landing), { replace: true });
    else if (result.kind === 'invalid') setInvalid(true);
    else if (result.kind === 'throttled') setThrottled(result.message);
    else setErrorOpen(true);
  }

  return (
    <div className="login-page">
      <H1 className="auth-title">Acesse o portal</H1>
      <EmailNotice />
      {denial === 'forbidden' && (
        <Callout intent={Intent.WARNING} className="login-notice" data-testid="login-forbidden">
          {FORBIDDEN_NOTICE}
        </Callout>
      )}
      <form className="login-form" onSubmit={onSubmit} noValidate aria-label="Login">
        <FormGroup label="E-mail" labelFor="username">
          <InputGroup
            id="username"
            name="username"
            type="text"
            inputMode="email"
            autoComplete="username"
            placeholder="seu.email@empresa.com.br"
            value={username}
            onValueChange={setUsername}
            size="large"
          />
        </FormGroup>
        <FormGroup label="Senha" labelFor="password">
          <InputGroup
            id="password"
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            value={password}
            onValueChange={setPassword}
            size="large"
            rightElement={<PasswordVisibilityToggle visible={showPassword} onToggle={() => setShowPassword((v) => !v)} />}
          />
        </FormGroup>
        <div className="login-options">
          <Checkbox
            id="keep_connection"
            name="keep_connection"
            label="Mantenha-me conectado"
            checked={keepConnection}
            onChange={(e) => setKeepConnection(e.currentTarget.checked)}
          />
          <Link to="/recovery-password" data-testid="forgot-password">
            Esqueceu sua senha?
          </Link>
        </div>
        {invalid && (
          <Callout intent={Intent.DANGER} className="login-error" role="alert" data-testid="login-error">
            {INVALID_CREDENTIALS}
          </Callout>
        )}
        {throttled && (
          <Callout intent={Intent.WARNING} className="login-error" role="alert" data-testid="login-throttled">
            {throttled}
          </Callout>
        )}
        <Button
          type="submit"
          intent={Intent.PRIMARY}
          size="large"
          fill
          text="Entrar"
          data-testid="login-submit"
          disabled={!canSubmit}
          loading={submitting}
        />
      </form>
      <div className="login-register">
        <span>Ainda não tem acesso?</span>
        <Button variant="outlined" text="Cadastre-se" data-testid="register-button" onClick={() => navigate('/Registration')} />
      </div>
      <ErrorModal isOpen={errorOpen} message={GENERIC_ERROR} onClose={() => setErrorOpen(false)} />
    </div>
  );
}
