import { Classes, H1 } from '@blueprintjs/core';
import { HistoryIcon } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A screen's header: its title (the h1 the screen's section is labelled by,
 * id 'page-title') and what sits right of it (a button, a link).
 */
export function PageHeader({ title, className, children }: { title: ReactNode; className: string; children?: ReactNode }) {
  return (
    <div className={className}>
      <H1 id="page-title" className="page-title" data-testid="page-title">
        {title}
      </H1>
      {children}
    </div>
  );
}

/** The 'Histórico' link of a details screen, drawn as an outlined button. */
export function HistoryButtonLink({ to, testId }: { to: string; testId: string }) {
  return (
    <Link to={to} className={`${Classes.BUTTON} ${Classes.OUTLINED}`} role="button" data-testid={testId}>
      <HistoryIcon />
      <span className={Classes.BUTTON_TEXT}>Histórico</span>
    </Link>
  );
}
