import { Spinner } from '@blueprintjs/core';
import { useEffect, useReducer, useRef, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { showToast } from '@/components/toaster';
import { useBrand } from '@/lib/brand';
import { decideAccess } from '@/lib/guards';
import { refreshSession } from '@/lib/http';
import { loginPath } from '@/lib/returnPath';
import { clearAllExceptLgpd, readSession } from '@/lib/session';
import type { Role } from '@/lib/roles';
import { ForbiddenScreen } from './ForbiddenScreen';

export const SESSION_ENDED = 'Sua sessão encerrou';

export interface GuardProps {
  /** Roles that may open the screen; null: any signed-in user. */
  roles: readonly Role[] | null;
  children: ReactNode;
}

/**
 * The navigation guard (spec §2): expired session or a role not allowed → `/`.
 * An expired token of a kept session (keep_connection 'true' and a refresh
 * token stored) is refreshed once before giving up. A screen the user's roles
 * may not open shows 'Sem permissão' inside the panel.
 */
export function Guard({ roles, children }: GuardProps) {
  const brand = useBrand();
  const location = useLocation();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const triedFor = useRef<string | null>(null);

  const session = readSession();
  let decision = decideAccess(session, roles, brand.slug);
  const alreadyTried = triedFor.current === location.key;
  if (decision.kind === 'refresh' && alreadyTried) decision = { kind: 'login', reason: 'expired' };

  const needsRefresh = decision.kind === 'refresh';
  // The expired token this render saw: another tab may renew the pair before the effect runs.
  const expiredToken = needsRefresh ? session.token : undefined;
  useEffect(() => {
    if (!needsRefresh) return;
    triedFor.current = location.key;
    let active = true;
    void refreshSession(expiredToken).then((ok) => {
      if (!ok) clearAllExceptLgpd();
      if (active) rerender();
    });
    return () => {
      active = false;
    };
  }, [needsRefresh, location.key, expiredToken]);

  const expired = decision.kind === 'login' && decision.reason === 'expired';
  useEffect(() => {
    if (expired) showToast({ message: SESSION_ENDED, intent: 'warning' });
  }, [expired]);

  if (decision.kind === 'allow') return <>{children}</>;
  if (decision.kind === 'refresh') {
    return (
      <div className="guard-waiting">
        <Spinner aria-label="Aguarde" />
      </div>
    );
  }
  // A signed-in user on a screen of the panel their roles may not open stays in the panel (the
  // layout's guard already let the session in): 'Sem permissão' there, not the login form.
  if (roles !== null && decision.reason === 'forbidden' && session.permissions.length > 0) {
    return <ForbiddenScreen />;
  }
  // Logged out (or expired): the login comes back here afterwards (lib/returnPath.ts).
  const back = decision.reason === 'forbidden' ? '/' : loginPath(location.pathname + location.search + location.hash);
  return <Navigate to={back} replace state={{ denied: decision.reason }} />;
}
