import { expect, test, type Page } from '@playwright/test';
import { login, shot, url } from './support';

/**
 * Issue 14 item 9: every list fits its card. At 1366×768 the opportunity table
 * is no wider than its card and its rows stay one or two lines; at 390×844 the
 * lists (opportunities, resales, users, history) are cards, one per row, and
 * nothing scrolls sideways. Brand etiquetron (a red brand); the seed's data,
 * read only. Screenshots of each list at both widths are attached.
 */
const SLUG = 'etiquetron';

interface Fit {
  tableWidth: number;
  cardWidth: number;
  scrollWidth: number;
  pageOverflow: number;
  rows: number;
  tallestRow: number;
  rowDisplay: string;
  headerHeight: number;
}

async function fit(page: Page, table: string): Promise<Fit> {
  const t = page.getByTestId(table);
  await expect(t).toBeVisible();
  return t.evaluate((el) => {
    const scroll = el.closest('.table-scroll') as HTMLElement;
    const rows = Array.from(el.querySelectorAll<HTMLElement>("tbody tr:not(.virtual-spacer)"));
    return {
      tableWidth: el.getBoundingClientRect().width,
      cardWidth: scroll.clientWidth,
      scrollWidth: scroll.scrollWidth,
      pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      rows: rows.length,
      tallestRow: Math.max(...rows.map((r) => r.getBoundingClientRect().height)),
      rowDisplay: rows.length ? getComputedStyle(rows[0]).display : '',
      headerHeight: el.querySelector('thead')!.getBoundingClientRect().height,
    };
  });
}

const screens = [
  { name: 'oportunidades', path: '/Painel/Opportunities', table: 'opportunity-table' },
  { name: 'revendas', path: '/Painel/Resales', table: 'resales-table' },
  { name: 'usuarios', path: '/Painel/Users', table: 'users-table' },
];

async function openHistory(page: Page) {
  await page.goto(url(SLUG, '/Painel/Opportunities'));
  await page.getByTestId('row-history').first().click();
  await expect(page.getByTestId('history-table')).toBeVisible();
}

test('at 1366×768 the lists fit their cards and rows stay short', async ({ page }, info) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, SLUG, 'representante');
  for (const s of screens) {
    await page.goto(url(SLUG, s.path));
    const f = await fit(page, s.table);
    await shot(page, info, `${s.name}-1366`);
    expect(f.rows, s.name).toBeGreaterThan(0);
    expect(f.scrollWidth, `${s.name}: the table scrolls inside its card`).toBeLessThanOrEqual(f.cardWidth + 1);
    expect(f.tableWidth, s.name).toBeLessThanOrEqual(f.cardWidth + 1);
    expect(f.pageOverflow, s.name).toBeLessThanOrEqual(0);
    expect(f.rowDisplay, s.name).toBe('table-row');
    expect(f.tallestRow, `${s.name}: row height`).toBeLessThanOrEqual(60);
  }
  await openHistory(page);
  const h = await fit(page, 'history-table');
  expect(h.scrollWidth).toBeLessThanOrEqual(h.cardWidth + 1);
  await shot(page, info, 'historico-1366');
});

test('at 390×844 every list is a column of cards and nothing scrolls sideways', async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, SLUG, 'representante');
  for (const s of screens) {
    await page.goto(url(SLUG, s.path));
    const f = await fit(page, s.table);
    await shot(page, info, `${s.name}-390`);
    expect(f.rows, s.name).toBeGreaterThan(0);
    expect(f.rowDisplay, `${s.name}: rows are cards`).toBe('block');
    expect(f.headerHeight, `${s.name}: the header row is for screen readers only`).toBeLessThanOrEqual(1);
    expect(f.scrollWidth, `${s.name}: the cards scroll sideways`).toBeLessThanOrEqual(f.cardWidth + 1);
    expect(f.pageOverflow, s.name).toBeLessThanOrEqual(0);
  }
  await openHistory(page);
  const h = await fit(page, 'history-table');
  expect(h.rowDisplay).toBe('block');
  expect(h.scrollWidth).toBeLessThanOrEqual(h.cardWidth + 1);
  expect(h.pageOverflow).toBeLessThanOrEqual(0);
  await shot(page, info, 'historico-390');
});
