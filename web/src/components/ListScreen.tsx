import { Card } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { ErrorModal } from './ErrorModal';
import { ListCard, type ListCardProps } from './ListBody';
import { PageHeader } from './PageHeader';

export interface ListScreenProps extends Omit<ListCardProps, 'children'> {
  /** The screen's own class, e.g. 'users-page'. */
  className: string;
  title: string;
  /** The header's class: 'page-header' (opportunities) or 'partners-header' (resales, users). */
  headerClassName: string;
  /** What sits right of the title (a button, a link). */
  actions?: ReactNode;
  /** The filters, in a card of their own of class `filtersClassName`. */
  filters: ReactNode;
  filtersClassName: string;
  /** The list's body: a ListBody around a TableScroll. */
  children: ReactNode;
  /** A failure the list reports in the error modal (spec §8). */
  error: string | null;
  onErrorClose: () => void;
}

/**
 * The scaffold of the three list screens (opportunities, resales, users): the
 * title and its actions, the filters' card, the list's card (ListCard: total,
 * tools, body, page size and paginator) and the error modal.
 */
export function ListScreen({
  className,
  title,
  headerClassName,
  actions,
  filters,
  filtersClassName,
  children,
  error,
  onErrorClose,
  ...card
}: ListScreenProps) {
  return (
    <section className={`panel-screen ${className}`} aria-labelledby="page-title">
      <PageHeader title={title} className={headerClassName}>
        {actions}
      </PageHeader>

      <Card className={filtersClassName} elevation={1}>
        {filters}
      </Card>

      <ListCard {...card}>{children}</ListCard>

      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={onErrorClose} />
    </section>
  );
}

/** The scrolling region a list's table sits in (components/tables.css); focusable so the keyboard reaches every column. */
export function TableScroll({ label, busy, children }: { label: string; busy: boolean; children: ReactNode }) {
  return (
    <div className="table-scroll" aria-busy={busy} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
