import { Card, H1, NonIdealState } from '@blueprintjs/core';
import { WrenchIcon } from '@blueprintjs/icons';

export const UNDER_CONSTRUCTION = 'Esta tela está em construção.';

export interface ScreenPlaceholderProps {
  title: string;
}

/** A panel screen still to be built: its title, so a test knows where it landed. */
export function ScreenPlaceholder({ title }: ScreenPlaceholderProps) {
  return (
    <section className="panel-screen" aria-labelledby="page-title">
      <H1 id="page-title" className="page-title" data-testid="page-title">
        {title}
      </H1>
      <Card className="placeholder-card">
        <NonIdealState icon={<WrenchIcon size={48} />} title="Em construção" description={UNDER_CONSTRUCTION} />
      </Card>
    </section>
  );
}
