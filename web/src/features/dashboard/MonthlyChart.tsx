import { AxisBottom, AxisLeft } from '@visx/axis';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { scaleLinear, scalePoint } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { TooltipWithBounds, useTooltip } from '@visx/tooltip';
import { BOTTOM_AXIS, GRID_STROKE, LEFT_AXIS, useWidth } from '@/components/chart';
import type { MonthPoint } from './api/dashboard';
import { chartYMax, countText, integerTicks, MONTH_NAMES, type Series } from './chart';

const COLORS: Record<Series, string> = { approved: '#238551', disapproved: '#cd4246' };
const SERIES_LABEL: Record<Series, string> = { approved: 'Aprovadas', disapproved: 'Reprovadas' };
const HEIGHT = 280;
const MARGIN = { top: 16, right: 24, bottom: 36, left: 44 };

export interface MonthlyChartProps {
  months: readonly MonthPoint[];
  series: readonly Series[];
}

/**
 * Approved versus disapproved opportunities per month (spec §2 "Dashboard"):
 * visx lines, y from 0 to the highest month × 1.5, months in pt-BR. Each
 * month is a focusable area that shows its counts in a tooltip.
 */
export function MonthlyChart({ months, series }: MonthlyChartProps) {
  const { ref, width } = useWidth<HTMLDivElement>(640);
  const { tooltipOpen, tooltipData, tooltipLeft, tooltipTop, showTooltip, hideTooltip } = useTooltip<MonthPoint>();

  const innerWidth = Math.max(120, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const yMax = chartYMax(months, series);
  const x = scalePoint<number>({ domain: months.map((m) => m.month), range: [0, innerWidth], padding: 0.5 });
  const y = scaleLinear<number>({ domain: [0, yMax], range: [innerHeight, 0] });
  const step = months.length > 0 ? innerWidth / months.length : innerWidth;
  const ticks = integerTicks(yMax);
  const xOf = (m: MonthPoint) => x(m.month) ?? 0;

  const describe = (m: MonthPoint) =>
    `${MONTH_NAMES[m.month - 1]}: ${series.map((s) => countText(m[s], s)).join(', ')}`;

  const show = (m: MonthPoint) =>
    showTooltip({
      tooltipData: m,
      tooltipLeft: MARGIN.left + xOf(m),
      tooltipTop: MARGIN.top + y(Math.max(...series.map((s) => m[s]))),
    });

  return (
    <div className="monthly-chart" ref={ref} data-testid="monthly-chart" data-y-max={yMax}>
      <svg width={width} height={HEIGHT} role="group" aria-label="Oportunidades aprovadas e reprovadas por mês">
        <Group left={MARGIN.left} top={MARGIN.top}>
          <GridRows scale={y} width={innerWidth} tickValues={ticks} stroke={GRID_STROKE} />
          {series.map((s) => (
            <LinePath<MonthPoint>
              key={s}
              data={[...months]}
              x={xOf}
              y={(m) => y(m[s])}
              stroke={COLORS[s]}
              strokeWidth={2.5}
              data-testid={`chart-line-${s}`}
            />
          ))}
          {series.map((s) =>
            months.map((m) => (
              <circle
                key={`${s}-${m.month}`}
                cx={xOf(m)}
                cy={y(m[s])}
                r={4}
                fill={COLORS[s]}
                data-testid={`chart-point-${s}-${m.month}`}
                data-value={m[s]}
                aria-hidden="true"
              />
            )),
          )}
          {months.map((m) => (
            <rect
              key={m.month}
              x={xOf(m) - step / 2}
              y={0}
              width={step}
              height={innerHeight}
              fill="transparent"
              tabIndex={0}
              role="img"
              aria-label={describe(m)}
              className="chart-hit"
              data-testid={`chart-month-${m.month}`}
              onMouseEnter={() => show(m)}
              onMouseMove={() => show(m)}
              onMouseLeave={hideTooltip}
              onFocus={() => show(m)}
              onBlur={hideTooltip}
            />
          ))}
          <AxisLeft
            scale={y}
            tickValues={ticks}
            tickFormat={(v) => Number(v).toLocaleString('pt-BR')}
            {...LEFT_AXIS}
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickFormat={(v) => months.find((m) => m.month === v)?.label ?? ''}
            {...BOTTOM_AXIS}
          />
        </Group>
      </svg>
      <ul className="chart-legend" aria-label="Legenda">
        {series.map((s) => (
          <li key={s}>
            <span className="chart-swatch" style={{ background: COLORS[s] }} aria-hidden="true" />
            {SERIES_LABEL[s]}
          </li>
        ))}
      </ul>
      {tooltipOpen && tooltipData && (
        <TooltipWithBounds left={tooltipLeft} top={tooltipTop} className="chart-tooltip">
          <div data-testid="chart-tooltip">
            <strong>{MONTH_NAMES[tooltipData.month - 1]}</strong>
            {series.map((s) => (
              <div key={s} data-testid={`chart-tooltip-${s}`}>
                <span className="chart-swatch" style={{ background: COLORS[s] }} aria-hidden="true" />
                {SERIES_LABEL[s]}: {tooltipData[s]}
              </div>
            ))}
          </div>
        </TooltipWithBounds>
      )}
    </div>
  );
}
