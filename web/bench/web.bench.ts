import { expect, test, type Page, type Route } from '@playwright/test';
import { login, url } from '../e2e/support';
import { kb, measureLoad, ms } from '../e2e/measure';

/**
 * `make bench-web`: what the login page costs on a first visit (bytes on the
 * wire, first contentful paint; on localhost and on a throttled 1.6 Mbps /
 * 150 ms link), and how the opportunity list behaves with 10,000 rows
 * ('Todas', a sort click, keystrokes in a filter) served by a mocked API.
 * Figures are printed; the budgets are asserted by e2e/first-load.spec.ts and
 * here only loosely (a bench reports, the tests decide).
 */

const SLUG = 'bipsul';
const ROWS = 10_000;

function report(title: string, figures: Record<string, string>) {
  const line = Object.entries(figures)
    .map(([k, v]) => `${k} ${v}`)
    .join(' · ');
  console.log(`[bench-web] ${title}: ${line}`);
}

test('login page, first visit', async ({ browser }) => {
  const ready = async (page: Page) => {
    await expect(page.locator('#username')).toBeVisible({ timeout: 120_000 });
  };
  for (const slow of [false, true]) {
    const context = await browser.newContext({ acceptDownloads: false });
    const f = await measureLoad(context, url(SLUG, '/'), ready, slow);
    report(slow ? 'login, 1.6 Mbps / 150 ms' : 'login, localhost', {
      'JS+CSS transferred': kb(f.jsCss),
      'JS+CSS decoded': kb(f.jsCssDecoded),
      'all transferred': kb(f.transferred),
      requests: String(f.requests),
      FCP: ms(f.fcp),
    });
    await context.close();
  }
});

const STATUSES = ['analysis', 'approved', 'disapproved', 'renovation', 'expired'];

/** n rows as the list API answers them (docs/api.md "Row"), with long names as the real ones have. */
function makeRows(n: number) {
  const start = Date.UTC(2026, 0, 1);
  return Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    status: STATUSES[i % STATUSES.length],
    name: `Oportunidade ${i}`,
    cnpj: String(10_000_000_000_000 + i * 7919).padStart(14, '0'),
    fantasyName: `Cliente ${i % 997}`,
    corporateName: `Comércio e Distribuição de Coletores ${i % 997} Ltda`,
    contact: 'Carla Nogueira',
    email: `compras${i}@cliente.com.br`,
    state: 'MG',
    city: 'Belo Horizonte',
    probabilityClosing: [25, 50, 75, 100][i % 4],
    estimated: ((i * 7919) % 1_000_000) / 100 + 100,
    register: i % 3 === 0 ? `CRM-${i}` : '',
    seller: 'Vanessa Lima',
    resale: 'Revenda Modelo de Equipamentos de Automação Comercial Ltda',
    approveDate: i % 5 === 1 ? new Date(start + i * 3_600_000).toISOString() : null,
    validUntil: null,
    createdAt: new Date(start + i * 3_600_000).toISOString(),
  }));
}

type Row = ReturnType<typeof makeRows>[number];

/** The list API of a server holding ROWS opportunities: filters by name, sorts, pages (answers cached, so the mock's own time stays out of the figures). */
const answers = new Map<string, string>();
async function serveRows(route: Route, rows: Row[]) {
  const key = route.request().url();
  let body = answers.get(key);
  if (body === undefined) {
    const q = new URL(key).searchParams;
    let out = rows;
    const name = q.get('name');
    if (name) out = out.filter((r) => r.name.toLowerCase().includes(name.toLowerCase()));
    const estimated = q.get('estimated');
    const created = q.get('createdAt') ?? (estimated ? null : 'desc');
    if (estimated) out = [...out].sort((a, b) => (a.estimated - b.estimated) * (estimated === 'asc' ? 1 : -1));
    if (created) out = [...out].sort((a, b) => a.createdAt.localeCompare(b.createdAt) * (created === 'asc' ? 1 : -1));
    const amount = Number(q.get('amount') ?? 10);
    const page = Number(q.get('page') ?? 1);
    body = JSON.stringify({ result: out.slice((page - 1) * amount, page * amount), total: out.length });
    answers.set(key, body);
  }
  await route.fulfill({ body, contentType: 'application/json' });
}

interface Timing {
  /** ms from the action to the first painted frame where each condition held. */
  at: Record<string, number>;
  /** ms from the list's answer (its last byte) to the painted frame where `done` held: the browser's own work. */
  afterAnswer: number | null;
  /** The longest task that blocked the page meanwhile (ms; 0 when none reached 50 ms). */
  longestTask: number;
}

/**
 * Runs `act` in the page, then checks the conditions on every frame and notes
 * when each first held (the last one ends the wait).
 */
async function timeInPage(page: Page, act: string, conditions: Record<string, string>): Promise<Timing> {
  return page.evaluate(
    async ([actSrc, conds]) => {
      const actFn = new Function(actSrc) as () => void;
      const checks = Object.entries(conds).map(([k, src]) => [k, new Function(`return (${src});`) as () => boolean] as const);
      const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
      const tasks: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push(e.duration);
      });
      observer.observe({ type: 'longtask' });
      const t0 = performance.now();
      const at: Record<string, number> = {};
      actFn();
      while (Object.keys(at).length < checks.length) {
        await frame();
        for (const [k, check] of checks) if (at[k] === undefined && check()) at[k] = performance.now();
        if (performance.now() - t0 > 180_000) throw new Error(`not done: ${JSON.stringify(conds)}`);
      }
      await frame(); // the frame that shows it
      const painted = performance.now();
      for (const e of observer.takeRecords()) tasks.push(e.duration);
      observer.disconnect();
      const answers = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/opportunity/all') && e.startTime >= t0) as PerformanceResourceTiming[];
      const last = answers.at(-1);
      const doneAt = Math.max(...Object.values(at));
      for (const k of Object.keys(at)) at[k] = at[k] - t0 + (painted - doneAt);
      return { at, afterAnswer: last ? painted - last.responseEnd : null, longestTask: Math.max(0, ...tasks) };
    },
    [act, conditions] as const,
  );
}

/** Rows the table holds (a virtual table renders only those in view). */
const ROW_COUNT = `Number(document.querySelector('[data-testid=opportunity-table]')?.getAttribute('data-row-count') ?? document.querySelectorAll('[data-testid=opportunity-row]').length)`;
const FIRST_ID = `document.querySelector('[data-testid=opportunity-row]')?.getAttribute('data-id')`;
const IDLE = `document.querySelector('.table-scroll')?.getAttribute('aria-busy') !== 'true'`;

/** Interactions (Event Timing: input to next paint, the longest event of each) of at least 16 ms since the last call. */
async function interactions(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __events?: Map<number, number> };
    if (!w.__events) {
      const seen = new Map<number, number>();
      w.__events = seen;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const id = (e as PerformanceEventTiming & { interactionId?: number }).interactionId;
          if (id) seen.set(id, Math.max(seen.get(id) ?? 0, e.duration));
        }
      }).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
    }
    const out = [...w.__events.values()];
    w.__events.clear();
    return out;
  });
}

const maxOf = (xs: number[]) => (xs.length ? ms(Math.max(...xs)) : '< 16 ms');

test('opportunity list, 10,000 rows', async ({ page }) => {
  test.setTimeout(900_000);
  const rows = makeRows(ROWS);
  await page.route('**/api/opportunity/all?*', (route) => serveRows(route, rows));
  await login(page, SLUG, 'representante');
  await page.goto(url(SLUG, '/Painel/Opportunities'));
  await expect(page.getByTestId('opportunity-row').first()).toBeVisible();
  await interactions(page);

  // 'Todas': from the choice to the painted table of 10,000 rows.
  const todas = await timeInPage(
    page,
    `const s = document.querySelector('[data-testid=page-size] select') ?? document.querySelector('select[data-testid=page-size]');
     Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(s, '99999');
     s.dispatchEvent(new Event('change', { bubbles: true }));`,
    { shown: `${ROW_COUNT} === ${ROWS} && ${IDLE}` },
  );
  console.log(`[bench-web] 'Todas' ${JSON.stringify(todas)}`);

  // Sort by value (descending, then ascending): click to the painted first row
  // (the loaded rows are sorted at once), and to the server's answer painted.
  const byValue = [...rows].sort((a, b) => b.estimated - a.estimated);
  const sorts: Timing[] = [];
  for (const expected of [byValue[0].id, byValue[byValue.length - 1].id]) {
    await page.getByTestId('sort-estimated').click();
    sorts.push(
      await timeInPage(page, '', {
        sorted: `${FIRST_ID} === ${JSON.stringify(expected)}`,
        settled: `${FIRST_ID} === ${JSON.stringify(expected)} && ${IDLE}`,
      }),
    );
    console.log(`[bench-web] sort click ${JSON.stringify(sorts.at(-1))}`);
  }
  const sortClicks = await interactions(page);

  // Keystrokes in 'Nome da oportunidade': each one's input-to-paint (Event Timing).
  const typed = 'Oportunidade 99';
  const before = Date.now();
  await page.locator('#filter-name').pressSequentially(typed, { delay: 60 });
  const typing = Date.now() - before;
  const keys = await interactions(page);
  // The filter applies 500 ms after the last key; then 111 rows.
  const applied = await timeInPage(page, '', { shown: `${ROW_COUNT} === 111 && ${IDLE}` });

  const fmt = (t: number | null | undefined) => (t == null ? 'n/a' : ms(t));
  report(`list of ${ROWS.toLocaleString('en')} rows`, {
    "'Todas' (choice → painted)": fmt(todas.at.shown),
    "'Todas' (answer → painted)": fmt(todas.afterAnswer),
    "'Todas' longest task": fmt(todas.longestTask),
    'sort click (input → paint)': maxOf(sortClicks),
    'sort (click → sorted rows painted)': sorts.map((t) => fmt(t.at.sorted)).join(' / '),
    'keystroke (input → paint), max': maxOf(keys),
    'keystrokes ≥ 16 ms': `${keys.length} of ${typed.length} keys`,
    'typing 15 keys (60 ms apart)': ms(typing),
    'filter (answer → painted)': fmt(applied.afterAnswer),
    'filter longest task': fmt(applied.longestTask),
  });
});
