import { Button, H1, NonIdealState } from '@blueprintjs/core';
import { LockIcon } from '@blueprintjs/icons';
import { useNavigate } from 'react-router';
import { firstLanding } from '@/lib/guards';
import { readSession } from '@/lib/session';

export const FORBIDDEN_TITLE = 'Sem permissão';
export const FORBIDDEN_TEXT = 'Você não tem permissão para acessar essa página.';

/**
 * What a signed-in user sees, inside the panel, on a route their roles may not
 * open: the session goes on (the menu and the badge stay), and 'Voltar ao
 * início' leads to their first landing.
 */
export function ForbiddenScreen() {
  const navigate = useNavigate();
  const landing = firstLanding(readSession().permissions);
  return (
    <section className="panel-screen" aria-labelledby="page-title" data-testid="forbidden-screen">
      <H1 id="page-title" className="page-title" data-testid="page-title">
        {FORBIDDEN_TITLE}
      </H1>
      <NonIdealState
        icon={<LockIcon size={48} />}
        description={FORBIDDEN_TEXT}
        action={<Button intent="primary" text="Voltar ao início" onClick={() => navigate(landing, { replace: true })} />}
      />
    </section>
  );
}
