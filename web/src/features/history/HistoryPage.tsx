import { Button, Card, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { ArrowLeftIcon, HistoryIcon, RefreshIcon } from '@blueprintjs/icons';
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { PageHeader } from '@/components/PageHeader';
import { LOADING_MESSAGES } from '@/components/LoadingModal';
import { DEFAULT_PAGE_SIZE, PageSizeSelect, PAGE_SIZES } from '@/components/PageSizeSelect';
import { Paginator } from '@/components/Paginator';
import { useListData } from '@/components/useListData';
import { formatDateTime } from '@/lib/format';
import { getHistory, type HistoryEntry } from './api/history';
import { readSession } from '@/lib/session';
import { actionLabel, attributeLabel, EMPTY_VALUE, formatValue, HISTORY_TYPES, historyType, type HistoryType } from './labels';
import { useHistorySubject } from './api/useHistorySubject';
import './history.css';
import '@/components/tables.css';

/** Empty state (spec §2). */
export const NO_HISTORY = 'Sem Histórico';
export const HISTORY_ERROR = 'Houve um erro. Tente novamente mais tarde!';

/** One line of the table: a change of one attribute within an entry. */
export interface HistoryLine {
  key: string;
  entry: HistoryEntry;
  /** First line of its entry (the entry's cells are shown once). */
  first: boolean;
  /** Lines of the entry. */
  span: number;
  attribute: string;
  oldValue: string;
  newValue: string;
}

/** Flattens entries into one line per modification (an entry without any keeps one line). */
export function historyLines(entries: readonly HistoryEntry[], type: HistoryType = 'Opportunities'): HistoryLine[] {
  const lines: HistoryLine[] = [];
  for (const entry of entries) {
    const mods = Array.isArray(entry.modifications) && entry.modifications.length > 0 ? entry.modifications : null;
    if (!mods) {
      lines.push({ key: `${entry.id}`, entry, first: true, span: 1, attribute: EMPTY_VALUE, oldValue: EMPTY_VALUE, newValue: EMPTY_VALUE });
      continue;
    }
    mods.forEach((m, i) => {
      lines.push({
        key: `${entry.id}-${i}`,
        entry,
        first: i === 0,
        span: mods.length,
        attribute: attributeLabel(m.attribute, type),
        oldValue: formatValue(m.attribute, m.oldValue),
        newValue: formatValue(m.attribute, m.newValue),
      });
    });
  }
  return lines;
}

/** History of a record (spec §2 "History"): `type` names the route 'Voltar' leads to. */
export function HistoryPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const type = historyType(params.get('type'));
  const subject = useHistorySubject(type, id);
  const showUser = readSession().permissions.includes('REPRESENTATIVE');

  const [amount, setAmount] = useState(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(1);
  // The shared list loader (a cached, cancelled TanStack query); spec §8: a 404 on history shows nothing.
  const {
    rows: entries,
    state,
    pages,
    error,
    setError,
    reload,
  } = useListData<HistoryEntry>(
    async (signal) => {
      const res = await getHistory(id, amount, page, signal);
      return res.status === 404 ? { ...res, ok: true, status: 200, data: { result: [], total: 0 } } : res;
    },
    `history|${JSON.stringify({ id, amount, page })}`,
    page,
    amount,
    setPage,
  );
  const lines = historyLines(entries, type);
  const loading = state === 'loading';

  let body: ReactNode;
  if (loading && entries.length === 0) {
    body = (
      <div className="list-loading" role="status" data-testid="history-loading">
        <Spinner size={32} />
        <p>{LOADING_MESSAGES[0]}</p>
      </div>
    );
  } else if (state === 'error' && entries.length === 0) {
    body = (
      <NonIdealState
        title="Não foi possível carregar o histórico"
        description={HISTORY_ERROR}
        action={<Button icon={<RefreshIcon />} text="Tentar novamente" onClick={reload} />}
      />
    );
  } else if (state === 'unauthorized') {
    body = null;
  } else if (entries.length === 0) {
    body = (
      <div data-testid="history-empty">
        <NonIdealState icon={<HistoryIcon size={48} />} title={NO_HISTORY} />
      </div>
    );
  } else {
    body = (
      <div className="table-scroll" aria-busy={loading} tabIndex={0} role="region" aria-label="Tabela de histórico">
        <HTMLTable compact bordered className="history-table list-table" data-testid="history-table">
          <thead>
            <tr>
              <th scope="col" className="col-action">
                Ação
              </th>
              {showUser && (
                <th scope="col" className="col-user">
                  Usuário
                </th>
              )}
              <th scope="col" className="col-attribute">
                Campo alterado
              </th>
              <th scope="col">Valor anterior</th>
              <th scope="col">Novo valor</th>
              <th scope="col" className="col-date">
                Data da modificação
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.key} className={line.first ? undefined : 'is-continuation'} data-testid="history-row" data-entry={line.entry.id}>
                {line.first && (
                  <td rowSpan={line.span} className="col-action" data-label="Ação" data-testid="history-action">
                    {actionLabel(line.entry.actionType)}
                  </td>
                )}
                {showUser && line.first && (
                  <td rowSpan={line.span} className="col-user" data-label="Usuário" data-testid="history-user">
                    {line.entry.username || 'Sistema'}
                  </td>
                )}
                <td className="col-attribute" data-label="Campo alterado" data-testid="history-attribute">
                  {line.attribute}
                </td>
                <td className="cell-wrap" data-label="Valor anterior" data-testid="history-old">
                  {line.oldValue}
                </td>
                <td className="cell-wrap" data-label="Novo valor" data-testid="history-new">
                  {line.newValue}
                </td>
                {line.first && (
                  <td rowSpan={line.span} className="col-date cell-nowrap" data-label="Data da modificação" data-testid="history-date">
                    {formatDateTime(line.entry.date)}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    );
  }

  return (
    <section className="panel-screen history-page" aria-labelledby="page-title">
      <PageHeader title="Histórico" className="page-header">
        <Button
          icon={<ArrowLeftIcon />}
          text="Voltar"
          onClick={() => navigate(HISTORY_TYPES[type].back)}
          data-testid="history-back"
        />
      </PageHeader>
      <Card className="list-card" elevation={1}>
        <p className="history-subject" data-testid="history-subject">
          {subject ? (
            <>
              {HISTORY_TYPES[type].label}: <strong>{subject}</strong>
            </>
          ) : (
            HISTORY_TYPES[type].label
          )}
        </p>
        {body}
        <div className="list-footer">
          <PageSizeSelect
            value={amount}
            options={PAGE_SIZES}
            onChange={(size) => {
              setAmount(size);
              setPage(1);
            }}
          />
          <Paginator page={page} pageCount={pages} onChange={setPage} disabled={loading && entries.length === 0} />
        </div>
      </Card>
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </section>
  );
}
