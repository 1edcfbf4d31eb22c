import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EMPTY_LIST, LIST_ERROR, ListBody, ListCard, type ListLoadState } from './ListBody';
import { PAGE_SIZES } from './PageSizeSelect';

function renderBody(state: ListLoadState, rowCount: number, extra: { blocked?: string | null; onRetry?: () => void } = {}) {
  return render(
    <ListBody
      state={state}
      rowCount={rowCount}
      errorTitle="Não foi possível carregar as revendas"
      onRetry={extra.onRetry ?? (() => {})}
      emptyDescription="Nenhuma revenda cadastrada ainda."
      blocked={extra.blocked}
    >
      <table data-testid="the-table" />
    </ListBody>,
  );
}

describe('ListBody', () => {
  it('shows the loading state before the first page', () => {
    renderBody('loading', 0);
    expect(screen.getByTestId('list-loading')).toHaveTextContent('Aguarde, estamos reunindo suas informações');
    expect(screen.queryByTestId('the-table')).toBeNull();
  });

  it('keeps the rows on screen while a new page loads', () => {
    renderBody('loading', 3);
    expect(screen.getByTestId('the-table')).toBeInTheDocument();
    expect(screen.queryByTestId('list-loading')).toBeNull();
  });

  it("shows the spec's failure text with a retry", async () => {
    const onRetry = vi.fn();
    renderBody('error', 0, { onRetry });
    expect(screen.getByTestId('list-error')).toHaveTextContent('Não foi possível carregar as revendas');
    expect(screen.getByTestId('list-error')).toHaveTextContent(LIST_ERROR);
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it("shows 'Sem conteúdo' with what is empty", () => {
    renderBody('ready', 0);
    expect(screen.getByTestId('list-empty')).toHaveTextContent(EMPTY_LIST);
    expect(screen.getByTestId('list-empty')).toHaveTextContent('Nenhuma revenda cadastrada ainda.');
  });

  it('shows nothing on a 401 (the session ends and Login opens)', () => {
    const { container } = renderBody('unauthorized', 0);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows why the list cannot be used instead of anything else', () => {
    renderBody('ready', 3, { blocked: 'Permission denied' });
    expect(screen.getByTestId('list-error')).toHaveTextContent('Permission denied');
    expect(screen.queryByTestId('the-table')).toBeNull();
  });

  it('shows the table once there are rows', () => {
    renderBody('ready', 2);
    expect(screen.getByTestId('the-table')).toBeInTheDocument();
  });
});

describe('ListCard', () => {
  function renderCard(state: ListLoadState, rowCount: number, total: number, handlers: { onAmount?: (n: number) => void; onPage?: (n: number) => void } = {}) {
    return render(
      <ListCard
        state={state}
        rowCount={rowCount}
        total={total}
        noun={['revenda', 'revendas']}
        amount={10}
        onAmount={handlers.onAmount ?? (() => {})}
        pageSizes={PAGE_SIZES}
        page={1}
        pageCount={3}
        onPage={handlers.onPage ?? (() => {})}
      >
        <p>corpo</p>
      </ListCard>,
    );
  }

  it('counts the total with the singular or the plural', () => {
    const { unmount } = renderCard('ready', 1, 1);
    expect(screen.getByTestId('list-total')).toHaveTextContent(/^1 revenda$/);
    unmount();
    renderCard('ready', 10, 25);
    expect(screen.getByTestId('list-total')).toHaveTextContent(/^25 revendas$/);
  });

  it('says nothing of the total before the first page arrives, and spins while a new page loads', () => {
    const { unmount } = renderCard('loading', 0, 0);
    expect(screen.getByTestId('list-total')).toHaveTextContent(/^$/);
    unmount();
    renderCard('loading', 10, 25);
    expect(screen.getByLabelText('Carregando')).toBeInTheDocument();
  });

  it("offers 'linhas/página' and the paginator", async () => {
    const onAmount = vi.fn();
    const onPage = vi.fn();
    renderCard('ready', 10, 25, { onAmount, onPage });
    await userEvent.selectOptions(screen.getByRole('combobox'), '25');
    expect(onAmount).toHaveBeenCalledWith(25);
    await userEvent.click(screen.getByRole('button', { name: /2/ }));
    expect(onPage).toHaveBeenCalledWith(2);
  });
});
