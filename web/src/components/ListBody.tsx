import { Button, Callout, Card, NonIdealState, Spinner } from '@blueprintjs/core';
import { RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import { LOADING_MESSAGES } from './LoadingModal';
import { PageSizeSelect } from './PageSizeSelect';
import { Paginator } from './Paginator';
import './lists.css';

/** Spec §8: a list that failed for a reason other than 401. */
export const LIST_ERROR = 'Houve um erro. Tente novamente mais tarde!';
/** The spec's empty state of the lists. */
export const EMPTY_LIST = 'Sem conteúdo';

/** Where a list's load stands; 'unauthorized' is the 401 that sends the user to Login. */
export type ListLoadState = 'loading' | 'ready' | 'error' | 'unauthorized';

export interface ListBodyProps {
  state: ListLoadState;
  rowCount: number;
  /** Title of the error state, e.g. 'Não foi possível carregar as revendas'. */
  errorTitle: string;
  onRetry: () => void;
  /** The empty state's description (what is empty: nothing registered, or nothing matches the filters). */
  emptyDescription?: string;
  /** Set when the caller may not use the list at all (spec §6 'Permission denied'): shown instead. */
  blocked?: string | null;
  /** The table, shown once there are rows. */
  children: ReactNode;
}

/**
 * The states every list screen goes through (spec §8): loading before the first
 * page, an error with a retry, the empty state, or the table. A reload keeps the
 * rows on screen (the table marks itself busy) rather than flashing a spinner.
 */
export function ListBody({ state, rowCount, errorTitle, onRetry, emptyDescription, blocked, children }: ListBodyProps) {
  if (blocked) {
    return (
      <Callout intent="danger" title="Ops!" data-testid="list-error">
        {blocked}
      </Callout>
    );
  }
  if (state === 'loading' && rowCount === 0) {
    return (
      <div className="list-loading" role="status" data-testid="list-loading">
        <Spinner size={32} />
        <p>{LOADING_MESSAGES[0]}</p>
      </div>
    );
  }
  if (state === 'error' && rowCount === 0) {
    return (
      <div data-testid="list-error">
        <NonIdealState
          title={errorTitle}
          description={LIST_ERROR}
          action={<Button icon={<RefreshIcon />} text="Tentar novamente" onClick={onRetry} />}
        />
      </div>
    );
  }
  if (state === 'unauthorized') return null;
  if (rowCount === 0) {
    return (
      <div data-testid="list-empty">
        <NonIdealState icon={<SearchIcon size={48} />} title={EMPTY_LIST} description={emptyDescription} />
      </div>
    );
  }
  return <>{children}</>;
}

export interface ListCardProps {
  state: ListLoadState;
  rowCount: number;
  total: number;
  /** What the total counts, singular and plural: ['revenda', 'revendas']. */
  noun: readonly [string, string];
  amount: number;
  onAmount: (size: number) => void;
  pageSizes: readonly number[];
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  /** Controls of the list shown right of the total (sort, columns). */
  tools?: ReactNode;
  /** The list's body (a ListBody). */
  children: ReactNode;
}

/**
 * The card every list sits in: the total ('12 revendas') with a spinner while a
 * new page loads and the list's tools (sort, 'Colunas'), the body, then the
 * 'linhas/página' select and the paginator.
 */
export function ListCard({
  state,
  rowCount,
  total,
  noun,
  amount,
  onAmount,
  pageSizes,
  page,
  pageCount,
  onPage,
  tools,
  children,
}: ListCardProps) {
  const loading = state === 'loading';
  return (
    <Card className="list-card" elevation={1}>
      <div className="list-toolbar">
        <span className="list-total" data-testid="list-total" aria-live="polite">
          {state === 'ready' || rowCount > 0 ? `${total} ${total === 1 ? noun[0] : noun[1]}` : ''}
        </span>
        {loading && rowCount > 0 && <Spinner size={16} aria-label="Carregando" />}
        {tools && <div className="list-tools">{tools}</div>}
      </div>
      {children}
      <div className="list-footer">
        <PageSizeSelect value={amount} onChange={onAmount} options={pageSizes} />
        <Paginator page={page} pageCount={pageCount} onChange={onPage} disabled={loading && rowCount === 0} />
      </div>
    </Card>
  );
}
