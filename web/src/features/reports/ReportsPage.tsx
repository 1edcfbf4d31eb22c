import { Button, Callout, Card, FormGroup, H1, H2, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { DownloadIcon, RefreshIcon } from '@blueprintjs/icons';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { MaskedInput } from '@/components/MaskedInput';
import { detailsPath } from '@/lib/guards';
import { formatBRL, formatCNPJ, formatDate } from '@/lib/format';
import { LONG_DATE_MASK } from '@/lib/masks';
import { statusClass, statusIntent, statusLabel } from '@/lib/status';
import { exportReport, saveBlob, type PipelineRow, type Report } from './api/reports';
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

/**
 * A report's card: its title and its table, with the chart beside the table
 * on a wide screen (below it on a phone) when there is one.
 */
function ReportSection({ title, id, chart, children }: { title: string; id: string; chart?: ReactNode; children: ReactNode }) {
  const table = (
    <div className={chart ? 'report-pair-table table-scroll' : 'table-scroll'} tabIndex={0} role="group" aria-label={`Tabela: ${title}`}>
      {children}
    </div>
  );
  return (
    <Card className="report-section" elevation={1} aria-labelledby={`${id}-title`} role="region" data-testid={id}>
      <H2 id={`${id}-title`} className="card-title">
        {title}
      </H2>
      {chart ? (
        <div className="report-pair">
          <div className="report-pair-chart">{chart}</div>
          {table}
        </div>
      ) : (
        table
      )}
    </Card>
  );
}

/** A column of a report's table: its header, and its cell for a row. */
interface ReportColumn<T> {
  header: string;
  /** A figure (aligned right). */
  num?: boolean;
  cell: (row: T) => ReactNode;
}

interface ReportTableProps<T> {
  testId: string;
  /** Its rows stack into cards on a phone, each cell named by its column (data-label). */
  stack?: boolean;
  /** The row's header (the first column) and the other columns. */
  columns: readonly [ReportColumn<T>, ...ReportColumn<T>[]];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** The line shown when there are no rows; null shows none. */
  empty?: string | null;
}

/** One of the report's tables: a row a record, its first cell the row's header. */
function ReportTable<T>({ testId, stack = false, columns, rows, rowKey, empty = 'Nada no período.' }: ReportTableProps<T>) {
  const [head, ...rest] = columns;
  return (
    <HTMLTable compact className={stack ? 'report-table report-stack' : 'report-table'} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={c.num ? 'num' : undefined}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty !== null ? (
          <tr>
            <td colSpan={columns.length} className="report-empty">
              {empty}
            </td>
          </tr>
        ) : (
          rows.map((r) => (
            <tr key={rowKey(r)}>
              <th scope="row">{head.cell(r)}</th>
              {rest.map((c) => (
                <td key={c.header} className={c.num ? 'num' : undefined} data-label={stack ? c.header : undefined}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </HTMLTable>
  );
}

const count = (n: number) => n.toLocaleString('pt-BR');

/** The pipeline by a key (UF, status): the open opportunities and their estimated value. */
function pipelineColumns(header: string): [ReportColumn<PipelineRow>, ...ReportColumn<PipelineRow>[]] {
  return [
    { header, cell: (s) => s.label },
    { header: 'Abertas', num: true, cell: (s) => count(s.count) },
    { header: 'Valor estimado', num: true, cell: (s) => formatBRL(s.value) },
  ];
}

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

      <ReportSection
        id="report-months"
        title="Tempo até a decisão por mês"
        chart={
          <>
            <BarChart data={months} title="Tempo até a decisão por mês (mediana em horas; traço: p90)" format={(v) => `${v.toLocaleString('pt-BR')} h`} testId="chart-months" />
            <p className="report-legend">Barra: mediana. Traço: p90 (90% decididas até ali).</p>
          </>
        }
      >
        <ReportTable
          testId="table-months"
          columns={[
            { header: 'Mês', cell: (m) => m.label },
            { header: 'Decisões', num: true, cell: (m) => count(m.count) },
            { header: 'Mediana', num: true, cell: (m) => hoursText(m.p50Hours) },
            { header: 'p90', num: true, cell: (m) => hoursText(m.p90Hours) },
          ]}
          rows={d.byMonth}
          rowKey={(m) => m.month}
          empty={null}
        />
      </ReportSection>

      <ReportSection
        id="report-resales"
        title="Taxa de aprovação por revenda"
        chart={<BarChart data={resellers} title="Taxa de aprovação por revenda" horizontal max={1} format={(v) => percentText(v)} color="#238551" testId="chart-resales" />}
      >
        <ReportTable
          testId="table-resales"
          stack
          columns={[
            {
              header: 'Revenda',
              cell: (r) => (
                <>
                  {r.name}
                  <small className="report-sub">{formatCNPJ(r.cnpj)}</small>
                </>
              ),
            },
            { header: 'Registradas', num: true, cell: (r) => count(r.registered) },
            { header: 'Aprovadas', num: true, cell: (r) => `${count(r.approved)} / ${count(r.decided)}` },
            { header: 'Taxa', num: true, cell: (r) => percentText(r.approvalRate) },
            { header: 'Pipeline', num: true, cell: (r) => formatBRL(r.pipeline) },
          ]}
          rows={report.byResale}
          rowKey={(r) => r.id}
        />
      </ReportSection>

      <ReportSection
        id="report-states"
        title="Pipeline por UF"
        chart={<BarChart data={states} title="Pipeline por UF (valor estimado das abertas)" format={compactBRL} color="#c87619" testId="chart-states" />}
      >
        <ReportTable testId="table-states" columns={pipelineColumns('UF')} rows={report.pipeline.byState} rowKey={(s) => s.key} />
      </ReportSection>

      <div className="report-tables">
        <ReportSection id="report-representatives" title="Decisões por representante">
          <ReportTable
            testId="table-representatives"
            columns={[
              { header: 'Representante', cell: (r) => r.name || '—' },
              { header: 'Decisões', num: true, cell: (r) => count(r.decided) },
              { header: 'Mediana', num: true, cell: (r) => hoursText(r.p50Hours) },
              { header: 'Aprovação', num: true, cell: (r) => percentText(r.approvalRate) },
            ]}
            rows={report.byRepresentative}
            rowKey={(r) => r.id}
          />
        </ReportSection>

        <ReportSection id="report-status" title="Pipeline por status">
          <ReportTable testId="table-status" columns={pipelineColumns('Status')} rows={report.pipeline.byStatus} rowKey={(s) => s.key} />
        </ReportSection>

        <ReportSection id="report-products" title="Pipeline por produto">
          <ReportTable
            testId="table-products"
            stack
            columns={[
              {
                header: 'Produto',
                cell: (p) => (
                  <>
                    {p.description || p.partNumber}
                    <small className="report-sub">{p.partNumber}</small>
                  </>
                ),
              },
              { header: 'Abertas', num: true, cell: (p) => count(p.count) },
              { header: 'Valor', num: true, cell: (p) => formatBRL(p.value) },
            ]}
            rows={report.pipeline.byProduct}
            rowKey={(p) => p.partNumber}
          />
        </ReportSection>
      </div>

      <ReportSection id="report-expiring" title={`Vencendo nos próximos ${report.expiringDays} dias`}>
        <ReportTable
          testId="table-expiring"
          stack
          columns={[
            {
              header: 'Oportunidade',
              cell: (e) => (
                <>
                  <Link to={detailsPath(e.id)}>{e.name || e.corporateName || 'Oportunidade'}</Link>
                  <small className="report-sub">
                    {e.corporateName}
                    {e.state ? ` · ${e.state}` : ''}
                  </small>
                </>
              ),
            },
            { header: 'Revenda', cell: (e) => e.resale || '—' },
            {
              header: 'Status',
              cell: (e) => (
                <Tag minimal intent={statusIntent(e.status)} className={statusClass(e.status)}>
                  {statusLabel(e.status)}
                </Tag>
              ),
            },
            {
              header: 'Válida até',
              cell: (e) => (
                <>
                  {formatDate(e.validUntil)} <small className="report-sub">{e.daysLeft === 1 ? 'em 1 dia' : `em ${e.daysLeft} dias`}</small>
                </>
              ),
            },
            { header: 'Valor estimado', num: true, cell: (e) => formatBRL(e.estimated) },
          ]}
          rows={report.expiringSoon}
          rowKey={(e) => e.id}
          empty="Nenhuma aprovação vence nesses dias."
        />
      </ReportSection>
    </>
  );
}

/** A day of the period (dd/mm/aaaa); onChange hears only a changed text. */
function DayField(props: { id: string; label: string; value: string; invalid: boolean; onChange: (v: string) => void }) {
  const { id, label, value, invalid, onChange } = props;
  return (
    <FormGroup label={label} labelFor={id}>
      <MaskedInput
        id={id}
        mask={LONG_DATE_MASK}
        value={value}
        onValueChange={(v) => {
          if (v !== value) onChange(v);
        }}
        placeholder="dd/mm/aaaa"
        inputMode="numeric"
        aria-invalid={invalid}
        aria-describedby={invalid ? 'report-period-error' : undefined}
        data-testid={id}
      />
    </FormGroup>
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
          <DayField
            id="report-from"
            label="De"
            value={fromText}
            invalid={formError !== null}
            onChange={(v) => {
              setFromText(v);
              setPreset('custom');
            }}
          />
          <DayField
            id="report-to"
            label="Até"
            value={toText}
            invalid={formError !== null}
            onChange={(v) => {
              setToText(v);
              setPreset('custom');
            }}
          />
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
