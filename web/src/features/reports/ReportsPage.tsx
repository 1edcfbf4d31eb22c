import { Button, Callout, Card, FormGroup, H1, H2, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { DownloadIcon, RefreshIcon } from '@blueprintjs/icons';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { MaskedInput } from '@/components/MaskedInput';
import { detailsPath } from '@/lib/guards';
import { formatBRL, formatCNPJ, formatDate } from '@/lib/format';
import { LONG_DATE_MASK } from '@/lib/masks';
import { statusClass, statusIntent, statusLabel } from '@/lib/status';
import { exportReport, saveBlob, type Report } from './api/reports';
import { useReport } from './api/useReport';
import { BarChart, type BarDatum } from './BarChart';
import {
  amount,
  DEFAULT_PERIOD_DAYS,
  hoursText,
  lastDays,
  longDay,
  percentText,
  readPeriod,
  thisYear,
  type Period,
} from './model/period';
import '@/components/tables.css';
import './reports.css';

/** Resellers on the approval-rate chart (the table lists every one). */
export const CHART_RESELLERS = 12;

type Preset = '30' | '90' | '180' | '365' | 'year' | 'custom';

const PRESETS: { value: Preset; label: string }[] = [
  { value: '30', label: 'Últimos 30 dias' },
  { value: '90', label: 'Últimos 90 dias' },
  { value: '180', label: 'Últimos 180 dias' },
  { value: '365', label: 'Últimos 365 dias' },
  { value: 'year', label: 'Este ano' },
  { value: 'custom', label: 'Personalizado' },
];

function presetPeriod(p: Preset): Period | null {
  if (p === 'year') return thisYear();
  if (p === 'custom') return null;
  return lastDays(Number(p));
}

function Figure({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <Card className="report-figure" data-testid={testId}>
      <span className="report-figure-label">{label}</span>
      <span className="report-figure-value" data-testid={`${testId}-value`}>
        {value}
      </span>
      {hint && <small className="report-figure-hint">{hint}</small>}
    </Card>
  );
}

/** A chart and its table: beside it on a wide screen, below it on a phone. */
function ChartWithTable({ title, id, chart, table }: { title: string; id: string; chart: ReactNode; table: ReactNode }) {
  return (
    <Card className="report-section" elevation={1} aria-labelledby={`${id}-title`} role="region" data-testid={id}>
      <H2 id={`${id}-title`} className="card-title">
        {title}
      </H2>
      <div className="report-pair">
        <div className="report-pair-chart">{chart}</div>
        <div className="report-pair-table table-scroll" tabIndex={0} role="group" aria-label={`Tabela: ${title}`}>
          {table}
        </div>
      </div>
    </Card>
  );
}

function TableCard({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card className="report-section" elevation={1} aria-labelledby={`${id}-title`} role="region" data-testid={id}>
      <H2 id={`${id}-title`} className="card-title">
        {title}
      </H2>
      <div className="table-scroll" tabIndex={0} role="group" aria-label={`Tabela: ${title}`}>
        {children}
      </div>
    </Card>
  );
}

const none = (cols: number, text = 'Nada no período.') => (
  <tr>
    <td colSpan={cols} className="report-empty">
      {text}
    </td>
  </tr>
);

function ReportBody({ report }: { report: Report }) {
  const d = report.decisions;
  const months: BarDatum[] = d.byMonth.map((m) => ({
    key: m.month,
    label: m.label.replace(/\/\d{2}(\d{2})$/, '/$1'),
    value: m.p50Hours ?? 0,
    mark: m.p90Hours,
    description: `${m.label}: ${m.count} ${m.count === 1 ? 'decisão' : 'decisões'}, mediana ${hoursText(m.p50Hours)}, p90 ${hoursText(m.p90Hours)}`,
  }));
  const resellers: BarDatum[] = report.byResale
    .filter((r) => r.decided > 0)
    .slice(0, CHART_RESELLERS)
    .map((r) => ({
      key: r.id,
      label: r.name,
      value: r.approvalRate ?? 0,
      description: `${r.name}: ${percentText(r.approvalRate)} aprovadas (${r.approved} de ${r.decided} decididas)`,
    }));
  const states: BarDatum[] = report.pipeline.byState.map((s) => ({
    key: s.key || '—',
    label: s.label,
    value: amount(s.value),
    description: `${s.label}: ${formatBRL(s.value)} em ${s.count} ${s.count === 1 ? 'oportunidade aberta' : 'oportunidades abertas'}`,
  }));
  const compactBRL = (v: number) =>
    v.toLocaleString('pt-BR', { notation: 'compact', maximumFractionDigits: 1, style: 'currency', currency: 'BRL' });

  return (
    <>
      <div className="report-figures" data-testid="report-figures">
        <Figure label="Decisões no período" value={d.count.toLocaleString('pt-BR')} hint={`${percentText(d.approvalRate)} aprovadas`} testId="figure-decisions" />
        <Figure label="Tempo até a decisão (mediana)" value={hoursText(d.p50Hours)} hint={`p90: ${hoursText(d.p90Hours)}`} testId="figure-p50" />
        <Figure
          label={`Decididas em até ${d.slaHours.toLocaleString('pt-BR')} h (SLA)`}
          value={percentText(d.withinSla)}
          hint={`${d.withinSlaCount.toLocaleString('pt-BR')} de ${d.count.toLocaleString('pt-BR')}`}
          testId="figure-sla"
        />
        <Figure
          label="Pipeline (abertas do período)"
          value={formatBRL(report.pipeline.total)}
          hint={`${report.pipeline.count.toLocaleString('pt-BR')} oportunidades`}
          testId="figure-pipeline"
        />
      </div>

      <ChartWithTable
        id="report-months"
        title="Tempo até a decisão por mês"
        chart={
          <>
            <BarChart data={months} title="Tempo até a decisão por mês (mediana em horas; traço: p90)" format={(v) => `${v.toLocaleString('pt-BR')} h`} testId="chart-months" />
            <p className="report-legend">Barra: mediana. Traço: p90 (90% decididas até ali).</p>
          </>
        }
        table={
          <HTMLTable compact className="report-table" data-testid="table-months">
            <thead>
              <tr>
                <th scope="col">Mês</th>
                <th scope="col" className="num">Decisões</th>
                <th scope="col" className="num">Mediana</th>
                <th scope="col" className="num">p90</th>
              </tr>
            </thead>
            <tbody>
              {d.byMonth.map((m) => (
                <tr key={m.month}>
                  <th scope="row">{m.label}</th>
                  <td className="num">{m.count.toLocaleString('pt-BR')}</td>
                  <td className="num">{hoursText(m.p50Hours)}</td>
                  <td className="num">{hoursText(m.p90Hours)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        }
      />

      <ChartWithTable
        id="report-resales"
        title="Taxa de aprovação por revenda"
        chart={<BarChart data={resellers} title="Taxa de aprovação por revenda" horizontal max={1} format={(v) => percentText(v)} color="#238551" testId="chart-resales" />}
        table={
          <HTMLTable compact className="report-table report-stack" data-testid="table-resales">
            <thead>
              <tr>
                <th scope="col">Revenda</th>
                <th scope="col" className="num">Registradas</th>
                <th scope="col" className="num">Aprovadas</th>
                <th scope="col" className="num">Taxa</th>
                <th scope="col" className="num">Pipeline</th>
              </tr>
            </thead>
            <tbody>
              {report.byResale.length === 0
                ? none(5)
                : report.byResale.map((r) => (
                    <tr key={r.id}>
                      <th scope="row">
                        {r.name}
                        <small className="report-sub">{formatCNPJ(r.cnpj)}</small>
                      </th>
                      <td className="num" data-label="Registradas">{r.registered.toLocaleString('pt-BR')}</td>
                      <td className="num" data-label="Aprovadas">
                        {r.approved.toLocaleString('pt-BR')} / {r.decided.toLocaleString('pt-BR')}
                      </td>
                      <td className="num" data-label="Taxa">{percentText(r.approvalRate)}</td>
                      <td className="num" data-label="Pipeline">{formatBRL(r.pipeline)}</td>
                    </tr>
                  ))}
            </tbody>
          </HTMLTable>
        }
      />

      <ChartWithTable
        id="report-states"
        title="Pipeline por UF"
        chart={<BarChart data={states} title="Pipeline por UF (valor estimado das abertas)" format={compactBRL} color="#c87619" testId="chart-states" />}
        table={
          <HTMLTable compact className="report-table" data-testid="table-states">
            <thead>
              <tr>
                <th scope="col">UF</th>
                <th scope="col" className="num">Abertas</th>
                <th scope="col" className="num">Valor estimado</th>
              </tr>
            </thead>
            <tbody>
              {report.pipeline.byState.length === 0
                ? none(3)
                : report.pipeline.byState.map((s) => (
                    <tr key={s.key}>
                      <th scope="row">{s.label}</th>
                      <td className="num">{s.count.toLocaleString('pt-BR')}</td>
                      <td className="num">{formatBRL(s.value)}</td>
                    </tr>
                  ))}
            </tbody>
          </HTMLTable>
        }
      />

      <div className="report-tables">
        <TableCard id="report-representatives" title="Decisões por representante">
          <HTMLTable compact className="report-table" data-testid="table-representatives">
            <thead>
              <tr>
                <th scope="col">Representante</th>
                <th scope="col" className="num">Decisões</th>
                <th scope="col" className="num">Mediana</th>
                <th scope="col" className="num">Aprovação</th>
              </tr>
            </thead>
            <tbody>
              {report.byRepresentative.length === 0
                ? none(4)
                : report.byRepresentative.map((r) => (
                    <tr key={r.id}>
                      <th scope="row">{r.name || '—'}</th>
                      <td className="num">{r.decided.toLocaleString('pt-BR')}</td>
                      <td className="num">{hoursText(r.p50Hours)}</td>
                      <td className="num">{percentText(r.approvalRate)}</td>
                    </tr>
                  ))}
            </tbody>
          </HTMLTable>
        </TableCard>

        <TableCard id="report-status" title="Pipeline por status">
          <HTMLTable compact className="report-table" data-testid="table-status">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col" className="num">Abertas</th>
                <th scope="col" className="num">Valor estimado</th>
              </tr>
            </thead>
            <tbody>
              {report.pipeline.byStatus.length === 0
                ? none(3)
                : report.pipeline.byStatus.map((s) => (
                    <tr key={s.key}>
                      <th scope="row">{s.label}</th>
                      <td className="num">{s.count.toLocaleString('pt-BR')}</td>
                      <td className="num">{formatBRL(s.value)}</td>
                    </tr>
                  ))}
            </tbody>
          </HTMLTable>
        </TableCard>

        <TableCard id="report-products" title="Pipeline por produto">
          <HTMLTable compact className="report-table report-stack" data-testid="table-products">
            <thead>
              <tr>
                <th scope="col">Produto</th>
                <th scope="col" className="num">Abertas</th>
                <th scope="col" className="num">Valor</th>
              </tr>
            </thead>
            <tbody>
              {report.pipeline.byProduct.length === 0
                ? none(3)
                : report.pipeline.byProduct.map((p) => (
                    <tr key={p.partNumber}>
                      <th scope="row">
                        {p.description || p.partNumber}
                        <small className="report-sub">{p.partNumber}</small>
                      </th>
                      <td className="num" data-label="Abertas">{p.count.toLocaleString('pt-BR')}</td>
                      <td className="num" data-label="Valor">{formatBRL(p.value)}</td>
                    </tr>
                  ))}
            </tbody>
          </HTMLTable>
        </TableCard>
      </div>

      <TableCard id="report-expiring" title={`Vencendo nos próximos ${report.expiringDays} dias`}>
        <HTMLTable compact className="report-table report-stack" data-testid="table-expiring">
          <thead>
            <tr>
              <th scope="col">Oportunidade</th>
              <th scope="col">Revenda</th>
              <th scope="col">Status</th>
              <th scope="col">Válida até</th>
              <th scope="col" className="num">Valor estimado</th>
            </tr>
          </thead>
          <tbody>
            {report.expiringSoon.length === 0
              ? none(5, 'Nenhuma aprovação vence nesses dias.')
              : report.expiringSoon.map((e) => (
                  <tr key={e.id}>
                    <th scope="row">
                      <Link to={detailsPath(e.id)}>{e.name || e.corporateName || 'Oportunidade'}</Link>
                      <small className="report-sub">
                        {e.corporateName}
                        {e.state ? ` · ${e.state}` : ''}
                      </small>
                    </th>
                    <td data-label="Revenda">{e.resale || '—'}</td>
                    <td data-label="Status">
                      <Tag minimal intent={statusIntent(e.status)} className={statusClass(e.status)}>
                        {statusLabel(e.status)}
                      </Tag>
                    </td>
                    <td data-label="Válida até">
                      {formatDate(e.validUntil)} <small className="report-sub">{e.daysLeft === 1 ? 'em 1 dia' : `em ${e.daysLeft} dias`}</small>
                    </td>
                    <td className="num" data-label="Valor estimado">{formatBRL(e.estimated)}</td>
                  </tr>
                ))}
          </tbody>
        </HTMLTable>
      </TableCard>
    </>
  );
}

/**
 * 'Relatórios' (representative and support): the programme's figures in a
 * period of Brasília's days (docs/deal-desk.md "Reports"), three charts each
 * with its table, the other tables, and the workbook of every table.
 */
export function ReportsPage() {
  const [period, setPeriod] = useState<Period>(() => lastDays(DEFAULT_PERIOD_DAYS));
  const [preset, setPreset] = useState<Preset>('90');
  const [fromText, setFromText] = useState(() => longDay(period.from));
  const [toText, setToText] = useState(() => longDay(period.to));
  const [formError, setFormError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const { report, error, loading, reload } = useReport(period);

  const choose = (p: Preset) => {
    setPreset(p);
    const next = presetPeriod(p);
    if (!next) return;
    setFromText(longDay(next.from));
    setToText(longDay(next.to));
    setFormError(null);
    setPeriod(next);
  };
  const apply = () => {
    const read = readPeriod(fromText, toText);
    if ('error' in read) {
      setFormError(read.error);
      return;
    }
    setFormError(null);
    setPeriod(read.period);
  };
  const download = async () => {
    setExporting(true);
    setExportError(null);
    const res = await exportReport(period.from, period.to);
    setExporting(false);
    if (res.ok) saveBlob(res.blob, res.fileName);
    else if (res.status !== 401) setExportError(res.message ?? 'Não foi possível exportar. Tente novamente mais tarde!');
  };

  let content: ReactNode;
  if (report) content = <ReportBody report={report} />;
  else if (loading)
    content = (
      <div className="list-loading" role="status" data-testid="report-loading">
        <Spinner size={32} />
        <p>Carregando os relatórios…</p>
      </div>
    );
  else if (error)
    content = (
      <NonIdealState
        title="Não foi possível carregar os relatórios"
        description={error}
        action={<Button icon={<RefreshIcon />} text="Tentar novamente" onClick={reload} />}
      />
    );

  return (
    <section className="panel-screen reports-page" aria-labelledby="page-title">
      <H1 id="page-title" className="page-title" data-testid="page-title">
        Relatórios
      </H1>
      <Card className="report-period" elevation={1}>
        <form
          className="report-period-form"
          aria-label="Período"
          onSubmit={(e) => {
            e.preventDefault();
            apply();
          }}
        >
          <FormGroup label="Período" labelFor="report-preset">
            <HTMLSelect
              id="report-preset"
              value={preset}
              onChange={(e) => choose(e.currentTarget.value as Preset)}
              options={PRESETS}
              data-testid="report-preset"
            />
          </FormGroup>
          <FormGroup label="De" labelFor="report-from">
            <MaskedInput
              id="report-from"
              mask={LONG_DATE_MASK}
              value={fromText}
              onValueChange={(v) => {
                if (v === fromText) return;
                setFromText(v);
                setPreset('custom');
              }}
              placeholder="dd/mm/aaaa"
              inputMode="numeric"
              aria-invalid={formError !== null}
              aria-describedby={formError ? 'report-period-error' : undefined}
              data-testid="report-from"
            />
          </FormGroup>
          <FormGroup label="Até" labelFor="report-to">
            <MaskedInput
              id="report-to"
              mask={LONG_DATE_MASK}
              value={toText}
              onValueChange={(v) => {
                if (v === toText) return;
                setToText(v);
                setPreset('custom');
              }}
              placeholder="dd/mm/aaaa"
              inputMode="numeric"
              aria-invalid={formError !== null}
              aria-describedby={formError ? 'report-period-error' : undefined}
              data-testid="report-to"
            />
          </FormGroup>
          <div className="report-period-actions">
            <Button type="submit" intent="primary" text="Aplicar" loading={loading && report !== null} data-testid="report-apply" />
            <Button
              icon={<DownloadIcon />}
              text="Exportar XLSX"
              loading={exporting}
              disabled={!report}
              onClick={() => void download()}
              data-testid="report-export"
            />
          </div>
        </form>
        {formError && (
          <Callout intent="danger" id="report-period-error" role="alert" data-testid="report-period-error" compact>
            {formError}
          </Callout>
        )}
        {exportError && (
          <Callout intent="danger" role="alert" data-testid="report-export-error" compact>
            {exportError}
          </Callout>
        )}
        <p className="report-period-text" data-testid="report-period-text" aria-live="polite">
          De {longDay(period.from)} a {longDay(period.to)} (dias de Brasília).
        </p>
      </Card>
      {error && report && (
        <Callout intent="danger" role="alert" compact>
          {error}
        </Callout>
      )}
      {content}
    </section>
  );
}
