import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Lists longer than this render only the rows in view (and a few around them). */
export const VIRTUAL_THRESHOLD = 100;

export interface VirtualRowsProps<T> {
  rows: readonly T[];
  /** Columns of the table, for the spacer rows. */
  columns: number;
  /** A row's height in px before one is drawn (then the drawn one's is used). */
  rowHeight: number;
  /** Draws row `index` (its <tr>, with a key). */
  renderRow: (row: T, index: number) => ReactNode;
}

/**
 * The <tbody> of a long list. Up to VIRTUAL_THRESHOLD rows, all of them; beyond,
 * only the rows the window shows, between two spacer rows that keep the table's
 * height, so 'Todas' on 10,000 rows costs what 30 rows cost (issue 14 item 7).
 * The page (the window) scrolls, as for a short list.
 */
export function VirtualRows<T>(props: VirtualRowsProps<T>) {
  if (props.rows.length <= VIRTUAL_THRESHOLD) {
    return <tbody>{props.rows.map((row, i) => props.renderRow(row, i))}</tbody>;
  }
  return <WindowRows {...props} />;
}

function WindowRows<T>({ rows, columns, rowHeight, renderRow }: VirtualRowsProps<T>) {
  const body = useRef<HTMLTableSectionElement>(null);
  // Where the body starts in the page (the virtualizer counts from the top of the
  // document) and how tall a row is: a table row, or a phone's card. Rows are cut
  // to one line per value, so one drawn row gives the height of all of them.
  const [offset, setOffset] = useState(0);
  const [size, setSize] = useState(rowHeight);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => size,
    overscan: 8,
    scrollMargin: offset,
  });
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const place = () => setOffset(el.getBoundingClientRect().top + window.scrollY);
    place();
    const drawn = el.querySelector('tr:not(.virtual-spacer)')?.getBoundingClientRect().height;
    if (drawn && Math.abs(drawn - size) > 1) setSize(drawn);
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [rows, size]);
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, size]);

  const items = virtualizer.getVirtualItems();
  const top = items.length > 0 ? items[0].start - offset : 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1].end - offset) : 0;

  return (
    <tbody ref={body}>
      {top > 0 && <Spacer height={top} columns={columns} />}
      {items.map((item) => renderRow(rows[item.index], item.index))}
      {bottom > 0 && <Spacer height={bottom} columns={columns} />}
    </tbody>
  );
}

function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr className="virtual-spacer" aria-hidden="true">
      <td colSpan={columns} style={{ height, padding: 0 }} />
    </tr>
  );
}
