import { Button, ButtonGroup } from '@blueprintjs/core';
import { ChevronBackwardIcon, ChevronForwardIcon, ChevronLeftIcon, ChevronRightIcon } from '@blueprintjs/icons';
import './lists.css';

/** Page buttons shown at once, and the size of a jump (spec §9). */
export const PAGE_BUTTONS = 4;

/** Number of pages for a total and a page size (at least 1). */
export function pageCount(total: number, amount: number): number {
  if (!Number.isFinite(total) || total <= 0 || amount <= 0) return 1;
  return Math.ceil(total / amount);
}

/**
 * The page numbers shown: the block of PAGE_BUTTONS pages that holds the
 * current one (1–4, 5–8, …), cut at the last page.
 */
export function pageWindow(page: number, count: number, size = PAGE_BUTTONS): number[] {
  const last = Math.max(1, count);
  const current = Math.min(Math.max(1, page), last);
  const start = Math.floor((current - 1) / size) * size + 1;
  const end = Math.min(start + size - 1, last);
  const pages: number[] = [];
  for (let p = start; p <= end; p++) pages.push(p);
  return pages;
}

/** Where a jump of PAGE_BUTTONS pages lands (kept inside 1..count). */
export function jumpTarget(page: number, count: number, direction: -1 | 1, size = PAGE_BUTTONS): number {
  return Math.min(Math.max(1, page + direction * size), Math.max(1, count));
}

export interface PaginatorProps {
  /** Current page, from 1. */
  page: number;
  pageCount: number;
  onChange: (page: number) => void;
  disabled?: boolean;
}

/** The paginator (spec §2): jump back 4, previous, 4 page buttons, next, jump forward 4. */
export function Paginator({ page, pageCount: count, onChange, disabled = false }: PaginatorProps) {
  const last = Math.max(1, count);
  const go = (target: number) => {
    if (target !== page && target >= 1 && target <= last) onChange(target);
  };
  const atStart = disabled || page <= 1;
  const atEnd = disabled || page >= last;
  return (
    <nav className="paginator" aria-label="Paginação" data-testid="paginator">
      <ButtonGroup>
        <Button
          icon={<ChevronBackwardIcon />}
          aria-label={`Voltar ${PAGE_BUTTONS} páginas`}
          data-testid="page-jump-back"
          disabled={atStart}
          onClick={() => go(jumpTarget(page, last, -1))}
        />
        <Button
          icon={<ChevronLeftIcon />}
          aria-label="Página anterior"
          data-testid="page-previous"
          disabled={atStart}
          onClick={() => go(page - 1)}
        />
        {pageWindow(page, last).map((p) => (
          <Button
            key={p}
            text={String(p)}
            active={p === page}
            intent={p === page ? 'primary' : 'none'}
            aria-label={`Página ${p}`}
            aria-current={p === page ? 'page' : undefined}
            data-testid={`page-${p}`}
            disabled={disabled}
            onClick={() => go(p)}
          />
        ))}
        <Button
          icon={<ChevronRightIcon />}
          aria-label="Próxima página"
          data-testid="page-next"
          disabled={atEnd}
          onClick={() => go(page + 1)}
        />
        <Button
          icon={<ChevronForwardIcon />}
          aria-label={`Avançar ${PAGE_BUTTONS} páginas`}
          data-testid="page-jump-forward"
          disabled={atEnd}
          onClick={() => go(jumpTarget(page, last, 1))}
        />
      </ButtonGroup>
    </nav>
  );
}
