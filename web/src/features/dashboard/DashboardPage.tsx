import { Button, Card, H1, H2, HTMLTable, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import {
  BankAccountIcon,
  EyeOpenIcon,
  HeadsetIcon,
  HistoryIcon,
  PeopleIcon,
  RefreshIcon,
  ShopIcon,
  ThListIcon,
} from '@blueprintjs/icons';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorModal } from '@/components/ErrorModal';
import { LOADING_MESSAGES } from '@/components/LoadingModal';
import type { DashboardData, StatusTotal } from './api/dashboard';
import { PANEL_BASE, detailsPath, historyPath } from '@/lib/guards';
import { statusClass, statusIntent, statusLabel } from '@/lib/status';
import { monthsToDate, TAB_SERIES } from './chart';
import { MonthlyChart } from './MonthlyChart';
import { DASHBOARD_ERROR, useDashboard } from './api/useDashboard';
// The summary sits in the lists' scrolling table (.table-scroll) and shows their spinner (.list-loading).
import '@/components/lists.css';
import '@/components/tables.css';
import './dashboard.css';

export { DASHBOARD_ERROR };
/** The 'Resumo' shows the last 11 opportunities (spec §9). */
export const RECENT_COUNT = 11;

type ChartTab = keyof typeof TAB_SERIES;

/** 'Ferramentas Disponíveis' (spec §2): where each tool leads. */
export const TOOLS: { label: string; description: string; to: string; icon: ReactNode; testId: string }[] = [
  {
    label: 'Gerenciar usuários',
    description: 'Vendedores e usuários das revendas',
    to: `${PANEL_BASE}/Users`,
    icon: <PeopleIcon />,
    testId: 'tool-users',
  },
  {
    label: 'Gerenciar revendas',
    description: 'Aprovar e acompanhar revendas',
    to: `${PANEL_BASE}/Resales`,
    icon: <ShopIcon />,
    testId: 'tool-resales',
  },
  { label: 'Suporte', description: 'Fale com a nossa equipe', to: '/Contact', icon: <HeadsetIcon />, testId: 'tool-support' },
  {
    label: 'Conta virtual',
    description: 'Seus dados de acesso e senha',
    to: `${PANEL_BASE}/Settings`,
    icon: <BankAccountIcon />,
    testId: 'tool-account',
  },
];

function empty(): StatusTotal {
  return { total: 0, thisMonth: 0 };
}

/** Reads the answer defensively: anything missing counts zero. */
function normalize(raw: Partial<DashboardData> | null | undefined): DashboardData {
  const total = (t: Partial<StatusTotal> | undefined): StatusTotal =>
    t ? { total: Number(t.total) || 0, thisMonth: Number(t.thisMonth) || 0 } : empty();
  return {
    months: monthsToDate(raw?.months),
    approved: total(raw?.approved),
    disapproved: total(raw?.disapproved),
    analysis: total(raw?.analysis),
    recent: Array.isArray(raw?.recent) ? raw.recent.slice(0, RECENT_COUNT) : [],
  };
}

interface TotalCardProps {
  id: 'approved' | 'disapproved' | 'analysis';
  label: string;
  value: StatusTotal;
}

function TotalCard({ id, label, value }: TotalCardProps) {
  return (
    <Card className={`total-card total-${id}`} data-testid={`total-${id}`}>
      <span className="total-label">{label}</span>
      <span className="total-value" data-testid={`total-${id}-value`}>
        {value.total.toLocaleString('pt-BR')}
      </span>
      <span className="total-month" data-testid={`total-${id}-month`} title="Neste mês">
        +{value.thisMonth.toLocaleString('pt-BR')} <small>este mês</small>
      </span>
    </Card>
  );
}

/** Dashboard (spec §2 "Dashboard"): chart, totals, 'Resumo' and 'Ferramentas Disponíveis'. */
export function DashboardPage() {
  const navigate = useNavigate();
  const { data, state, error, setError, reload } = useDashboard(normalize);
  const [tab, setTab] = useState<ChartTab>('opportunities');

  const months = useMemo(() => data?.months ?? monthsToDate([]), [data]);

  let content: ReactNode;
  if (state === 'loading' && !data) {
    content = (
      <div className="list-loading" role="status" data-testid="dashboard-loading">
        <Spinner size={32} />
        <p>{LOADING_MESSAGES[0]}</p>
      </div>
    );
  } else if (state === 'error' && !data) {
    content = (
      <div data-testid="dashboard-error">
        <NonIdealState
          title="Não foi possível carregar o dashboard"
          description={DASHBOARD_ERROR}
          action={<Button icon={<RefreshIcon />} text="Tentar novamente" onClick={reload} />}
        />
      </div>
    );
  } else if (!data) {
    content = null;
  } else {
    content = (
      <div className="dashboard-grid">
        <Card className="dashboard-chart-card" elevation={1}>
          <div className="card-header">
            <Tabs
              id="dashboard-tabs"
              selectedTabId={tab}
              onChange={(id) => setTab(id as ChartTab)}
              className="dashboard-tabs"
            >
              <Tab id="opportunities" title="Oportunidades" data-testid="tab-opportunities" />
              <Tab id="approved" title="Aprovados" data-testid="tab-approved" />
            </Tabs>
            <Link to={`${PANEL_BASE}/Opportunities`} className="view-list-link" data-testid="view-list">
              <ThListIcon /> Visualizar lista
            </Link>
          </div>
          {/* The selected tab's panel (Blueprint's tabs point at it with aria-controls). */}
          <div role="tabpanel" id={`bp6-tab-panel_dashboard-tabs_${tab}`} aria-labelledby={`bp6-tab-title_dashboard-tabs_${tab}`}>
            <MonthlyChart months={months} series={TAB_SERIES[tab]} />
          </div>
        </Card>

        <div className="dashboard-totals">
          <TotalCard id="approved" label="Aprovados" value={data.approved} />
          <TotalCard id="disapproved" label="Reprovados" value={data.disapproved} />
          <TotalCard id="analysis" label="Em Análise" value={data.analysis} />
        </div>

        <Card className="dashboard-summary" elevation={1}>
          <H2 className="card-title">Resumo</H2>
          {data.recent.length === 0 ? (
            <NonIdealState title="Sem conteúdo" description="Nenhuma oportunidade registrada ainda." />
          ) : (
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Tabela de resumo">
              <HTMLTable compact striped className="summary-table" data-testid="summary-table">
                <thead>
                  <tr>
                    <th scope="col">Contato</th>
                    <th scope="col">Razão social</th>
                    <th scope="col">Produto</th>
                    <th scope="col">Status</th>
                    <th scope="col">Ações</th>
                  </tr>
                </thead>
                <tbody>
                  {data.recent.map((row) => (
                    <tr key={row.id} data-testid="summary-row" data-id={row.id}>
                      <td>{row.contact || 'N/C'}</td>
                      <td>{row.corporateName || 'N/C'}</td>
                      <td>{row.product || 'N/C'}</td>
                      <td>
                        <Tag minimal intent={statusIntent(row.status)} className={statusClass(row.status)}>
                          {statusLabel(row.status)}
                        </Tag>
                      </td>
                      <td className="cell-actions">
                        <Button
                          variant="minimal"
                          size="small"
                          icon={<EyeOpenIcon />}
                          aria-label={`Ver detalhes de ${row.name || row.corporateName || 'oportunidade'}`}
                          title="Ver detalhes"
                          onClick={() => navigate(detailsPath(row.id))}
                          data-testid="summary-details"
                        />
                        <Link
                          to={historyPath(row.id)}
                          className="history-link"
                          aria-label={`Histórico de ${row.name || row.corporateName || 'oportunidade'}`}
                          title="Histórico"
                        >
                          <HistoryIcon />
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </div>
          )}
        </Card>

        <Card className="dashboard-tools" elevation={1}>
          <H2 className="card-title">Ferramentas Disponíveis</H2>
          <ul className="tool-list">
            {TOOLS.map((tool) => (
              <li key={tool.testId}>
                <Link to={tool.to} className="tool-link" data-testid={tool.testId}>
                  <span className="tool-icon" aria-hidden="true">
                    {tool.icon}
                  </span>
                  <span className="tool-text">
                    <strong>{tool.label}</strong>
                    <small>{tool.description}</small>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    );
  }

  return (
    <section className="panel-screen dashboard-page" aria-labelledby="page-title">
      <H1 id="page-title" className="page-title" data-testid="page-title">
        Dashboard
      </H1>
      {content}
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </section>
  );
}
