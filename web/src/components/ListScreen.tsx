import { Card } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { ErrorModal } from './ErrorModal';
import { ListBody, ListCard, type ListBodyProps, type ListCardProps } from './ListBody';
import { PageHeader } from './PageHeader';

export interface ListScreenProps extends Omit<ListCardProps, 'children'>, Pick<ListBodyProps, 'errorTitle' | 'onRetry' | 'emptyDescription' | 'blocked'> {
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
  /** The list's table (in a TableScroll), shown by a ListBody once there are rows. */
  children: ReactNode;
  /** A failure the list reports in the error modal (spec §8). */
  error: string | null;
  onErrorClose: () => void;
}

/**
 * The scaffold of the three list screens (opportunities, resales, users): the
 * title and its actions, the filters' card, the list's card (ListCard: total,
 * tools, the body's states (ListBody) or the table, page size and paginator)
 * and the error modal.
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
  errorTitle,
  onRetry,
  emptyDescription,
  blocked,
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

      <ListCard {...card}>
        <ListBody
          state={card.state}
          rowCount={card.rowCount}
          errorTitle={errorTitle}
          onRetry={onRetry}
          emptyDescription={emptyDescription}
          blocked={blocked}
        >
          {children}
        </ListBody>
      </ListCard>

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
