import { useEffect, useRef, useState } from 'react';

/** Width of an element, followed as it resizes. */
export function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T | null>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = el.getBoundingClientRect().width;
      if (w > 0) setWidth(Math.floor(w));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** The grid lines' colour. */
export const GRID_STROKE = '#e5e8eb';

const AXIS_STROKE = '#8f99a8';
const TICK_LABEL = { fill: '#404854', fontSize: 11 } as const;

/** The look of a visx AxisLeft (spread into it). */
export const LEFT_AXIS = {
  stroke: AXIS_STROKE,
  tickStroke: AXIS_STROKE,
  tickLabelProps: { ...TICK_LABEL, textAnchor: 'end', dx: -4, dy: 3 },
} as const;

/** The look of a visx AxisBottom (spread into it). */
export const BOTTOM_AXIS = {
  stroke: AXIS_STROKE,
  tickStroke: AXIS_STROKE,
  tickLabelProps: { ...TICK_LABEL, textAnchor: 'middle' },
} as const;
