import { Button, Card, H1, H2, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { EditIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { ErrorModal } from '@/components/ErrorModal';
import { SuccessModal } from '@/components/SuccessModal';
import { formatDateTime } from '@/lib/format';
import type { CoverageData, CoverageEntry } from './api/coverage';
import { useCoverage, useCoverageHistory, useSaveCoverage } from './api/useCoverage';
import { CoverageDialog } from './CoverageDialog';
import { describeChange, resaleLabel, statesLabel } from './model/coverage';
import './coverage.css';

export const COVERAGE_ERROR = 'Houve um erro. Tente novamente mais tarde!';

/**
 * 'Cobertura' (docs/deal-desk.md "Routing"): the brand's representatives with
 * the UFs and reseller accounts each covers, an edit dialog per
 * representative, and the history of every change.
 */
export function CoveragePage() {
  const coverage = useCoverage();
  const history = useCoverageHistory();
  const save = useSaveCoverage();
  const [editing, setEditing] = useState<CoverageEntry | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const raw = coverage.data?.ok ? coverage.data.data : null;
  const data: CoverageData | null = raw
    ? { representatives: raw.representatives ?? [], states: raw.states ?? [], resales: raw.resales ?? [] }
    : null;
  const reps = data?.representatives ?? [];
  const changes = (history.data?.ok && history.data.data?.result) || [];
  const nameOf = (id: string) => reps.find((r) => r.id === id)?.name ?? 'Representante';
  const resaleName = (id: string) => {
    const r = data?.resales.find((x) => x.id === id);
    return r ? r.name : `revenda ${id.slice(0, 8)}`;
  };
  const uncovered = data ? data.states.filter((uf) => !reps.some((r) => r.states.includes(uf))) : [];

  async function onSave(states: string[], resaleIds: string[]) {
    if (!editing) return;
    const res = await save.mutateAsync({ userId: editing.id, states, resaleIds });
    if (res.ok) {
      setEditing(null);
      setMessage(res.data?.message ?? 'Cobertura atualizada com sucesso');
    } else if (res.status !== 401) {
      setError(res.status < 500 && res.message ? res.message : COVERAGE_ERROR);
    }
  }

  return (
    <section className="panel-screen coverage-screen" aria-labelledby="page-title">
      <H1 id="page-title" className="page-title" data-testid="page-title">
        Cobertura
      </H1>
      <p className="coverage-intro">
        Cada registro vai para os representantes da revenda que o registrou; sem revenda nomeada, para quem atende a UF
        do cliente. Sem ninguém, vai para todos os representantes da marca.
      </p>
      {coverage.isPending ? (
        <Spinner size={32} />
      ) : !data ? (
        <NonIdealState title={COVERAGE_ERROR} />
      ) : (
        <>
          {uncovered.length > 0 && (
            <p className="coverage-uncovered" data-testid="coverage-uncovered">
              UFs sem representante (vão para todos): {uncovered.join(', ')}
            </p>
          )}
          <div className="coverage-list">
            {reps.map((r) => (
              <Card key={r.id} className="coverage-card" elevation={1} data-testid="coverage-card">
                <div className="coverage-card-head">
                  <div>
                    <H2 className="card-title">{r.name}</H2>
                    <div className="coverage-email">{r.email}</div>
                  </div>
                  <Button icon={<EditIcon />} text="Editar" onClick={() => setEditing(r)} aria-label={`Editar cobertura de ${r.name}`} />
                </div>
                <div className="coverage-field">
                  <span className="coverage-label">UFs</span>
                  <span data-testid="coverage-states">{statesLabel(r.states)}</span>
                </div>
                <div className="coverage-field">
                  <span className="coverage-label">Revendas</span>
                  <span className="coverage-tags">
                    {r.resales.length === 0
                      ? 'Nenhuma'
                      : r.resales.map((a) => (
                          <Tag key={a.id} minimal>
                            {resaleLabel(a)}
                          </Tag>
                        ))}
                  </span>
                </div>
              </Card>
            ))}
          </div>
        </>
      )}
      <Card className="coverage-history" elevation={1}>
        <H2 className="card-title">Histórico de alterações</H2>
        {changes.length > 0 ? (
          <div className="table-scroll">
            <HTMLTable compact striped className="coverage-history-table" data-testid="coverage-history">
              <thead>
                <tr>
                  <th>Data</th>
                  <th>Representante</th>
                  <th>Alterado por</th>
                  <th>Alteração</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((h) => (
                  <tr key={h.id}>
                    <td data-label="Data">{formatDateTime(h.date)}</td>
                    <td data-label="Representante">{nameOf(h.representativeId)}</td>
                    <td data-label="Alterado por">{h.username}</td>
                    <td data-label="Alteração">
                      {(h.modifications ?? []).map((c) => (
                        <div key={c.attribute}>{describeChange(c, resaleName)}</div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        ) : (
          <p className="coverage-empty">Nenhuma alteração registrada.</p>
        )}
      </Card>
      {editing && data && (
        <CoverageDialog
          entry={editing}
          resales={data.resales}
          saving={save.isPending}
          onSave={(s, ids) => void onSave(s, ids)}
          onClose={() => setEditing(null)}
        />
      )}
      <SuccessModal isOpen={message !== null} message={message ?? ''} onClose={() => setMessage(null)} />
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </section>
  );
}
