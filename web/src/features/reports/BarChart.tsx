import { AxisBottom, AxisLeft } from '@visx/axis';
import { GridColumns, GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { BOTTOM_AXIS, GRID_STROKE, LEFT_AXIS, useWidth } from '@/components/chart';

export interface BarDatum {
  key: string;
  /** The axis' label (short). */
  label: string;
  value: number;
  /** A second figure drawn as a mark on the bar (e.g. the p90 over the median). */
  mark?: number | null;
  /** The bar's text alternative: its label and figures in words. */
  description: string;
}

export interface BarChartProps {
  data: readonly BarDatum[];
  /** The chart's name for assistive technology ('Tempo até a decisão por mês'). */
  title: string;
  /** Ticks of the value axis. */
  format: (v: number) => string;
  /** Horizontal bars (long labels, e.g. resellers' names); vertical otherwise. */
  horizontal?: boolean;
  /** Upper bound of the value axis (e.g. 1 for a rate); else the largest value. */
  max?: number;
  color?: string;
  testId: string;
}

const MARK_COLOR = '#1c2127';

/** Cuts a label to n characters with an ellipsis (the table beside shows it whole). */
function cut(label: string, n: number): string {
  return label.length > n ? `${label.slice(0, n - 1)}…` : label;
}

/**
 * A visx bar chart. The SVG is one image with its title and a list of its bars
 * in words (role="img" with aria-label, and each bar focusable with its own
 * description); the table beside it is the readable form of the same figures.
 */
export function BarChart({ data, title, format, horizontal = false, max, color = 'var(--brand-primary, #2d72d2)', testId }: BarChartProps) {
  const { ref, width } = useWidth<HTMLDivElement>(480);
  const rows = horizontal ? Math.max(data.length, 1) : 0;
  const height = horizontal ? 24 + rows * 28 + 28 : 240;
  const labelChars = width < 420 ? 12 : 22;
  const margin = horizontal
    ? { top: 8, right: 16, bottom: 28, left: Math.min(8 + labelChars * 6.5, width * 0.42) }
    : { top: 12, right: 12, bottom: 40, left: 76 };
  const innerWidth = Math.max(60, width - margin.left - margin.right);
  const innerHeight = Math.max(40, height - margin.top - margin.bottom);
  const top = Math.max(max ?? 0, ...data.map((d) => Math.max(d.value, d.mark ?? 0)), 0) || 1;
  const band = scaleBand<string>({
    domain: data.map((d) => d.key),
    range: horizontal ? [0, innerHeight] : [0, innerWidth],
    padding: 0.25,
  });
  const value = scaleLinear<number>({
    domain: [0, top],
    range: horizontal ? [0, innerWidth] : [innerHeight, 0],
    nice: max === undefined,
  });
  const labelOf = (key: string) => data.find((d) => d.key === key)?.label ?? key;
  // On a phone the vertical axis shows every other label when they would touch.
  const every = !horizontal && data.length > 0 && innerWidth / data.length < 44 ? Math.ceil(44 / (innerWidth / data.length)) : 1;
  const summary = `${title}: ${data.length === 0 ? 'sem dados no período' : data.map((d) => d.description).join('; ')}`;

  return (
    <div className="report-chart" ref={ref} data-testid={testId}>
      <svg width={width} height={height} role="img" aria-label={summary}>
        <Group left={margin.left} top={margin.top}>
          {horizontal ? (
            <GridColumns scale={value} height={innerHeight} numTicks={4} stroke={GRID_STROKE} />
          ) : (
            <GridRows scale={value} width={innerWidth} numTicks={4} stroke={GRID_STROKE} />
          )}
          {data.map((d) => {
            const pos = band(d.key) ?? 0;
            const size = band.bandwidth();
            const mark = d.mark ?? null;
            return horizontal ? (
              <g key={d.key} data-testid={`${testId}-bar`} data-value={d.value}>
                <Bar x={0} y={pos} width={Math.max(0, value(d.value))} height={size} fill={color} rx={2} />
                {mark !== null && <rect x={value(mark) - 1.5} y={pos - 2} width={3} height={size + 4} fill={MARK_COLOR} />}
              </g>
            ) : (
              <g key={d.key} data-testid={`${testId}-bar`} data-value={d.value}>
                <Bar x={pos} y={value(d.value)} width={size} height={Math.max(0, innerHeight - value(d.value))} fill={color} rx={2} />
                {mark !== null && <rect x={pos - 2} y={value(mark) - 1.5} width={size + 4} height={3} fill={MARK_COLOR} />}
              </g>
            );
          })}
          {horizontal ? (
            <>
              <AxisLeft
                scale={band}
                tickFormat={(k) => cut(labelOf(String(k)), labelChars)}
                {...LEFT_AXIS}
              />
              <AxisBottom
                top={innerHeight}
                scale={value}
                numTicks={width < 420 ? 3 : 5}
                tickFormat={(v) => format(Number(v))}
                {...BOTTOM_AXIS}
              />
            </>
          ) : (
            <>
              <AxisLeft
                scale={value}
                numTicks={4}
                tickFormat={(v) => format(Number(v))}
                {...LEFT_AXIS}
              />
              <AxisBottom
                top={innerHeight}
                scale={band}
                tickFormat={(k) => {
                  const i = data.findIndex((d) => d.key === k);
                  return i % every === 0 ? labelOf(String(k)) : '';
                }}
                {...BOTTOM_AXIS}
              />
            </>
          )}
        </Group>
      </svg>
    </div>
  );
}
