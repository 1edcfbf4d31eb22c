import { expect, test } from '@playwright/test';
import { apiSession, watchConsole } from './list-support';
import { expectNoSidewaysScroll, login, shot, url } from './support';
/**
 * 'Relatórios' (docs/deal-desk.md "Reports"): the figures of the seeded demo
 * (its decisions are real workflow events) on a light brand (nordata) and the
 * red one (etiquetron), at 1366×768 and 390×844. Reads only: it changes no data.
 */
const BRANDS = ['nordata', 'etiquetron'] as const;
const SIZES = [
  { name: 'desktop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
] as const;

interface Report {
  period: { from: string; to: string };
  decisions: { count: number; byMonth: { month: string }[] };
  byResale: unknown[];
  pipeline: { byState: unknown[]; total: string | number };
  expiringSoon: unknown[];
}

test.describe.configure({ timeout: 90_000 });

for (const slug of BRANDS) {
  for (const size of SIZES) {
    test(`reports on ${slug} at ${size.width}×${size.height}`, async ({ page, request }, info) => {
      const errors = watchConsole(page);
      await page.setViewportSize({ width: size.width, height: size.height });
      await login(page, slug, 'representante');
      if (size.width < 800) await page.getByRole('button', { name: 'Abrir menu' }).click();
      await page.getByTestId('menu-Reports').click();
      await expect(page).toHaveURL(url(slug, '/Painel/Reports'));
      await expect(page.getByTestId('page-title')).toHaveText('Relatórios');
      await expect(page.getByTestId('figure-decisions-value')).toBeVisible();

      // The screen's period is the last 90 days; its figures are the API's.
      const from = (await page.getByTestId('report-from').inputValue()).split('/');
      const to = (await page.getByTestId('report-to').inputValue()).split('/');
      const iso = (d: string[]) => `${d[2]}-${d[1]}-${d[0]}`; // dd/mm/aaaa
      const rep = await apiSession(request, slug, 'representante');
      const res = await rep.call<{ data: Report }>('GET', `/reports?from=${iso(from)}&to=${iso(to)}`);
      expect(res.status).toBe(200);
      const r = res.body.data;
      expect(r.decisions.count, 'the demo has decisions in the last 90 days').toBeGreaterThan(0);
      await expect(page.getByTestId('figure-decisions-value')).toHaveText(r.decisions.count.toLocaleString('pt-BR'));
      await expect(page.getByTestId('table-months').locator('tbody tr')).toHaveCount(r.decisions.byMonth.length);
      await expect(page.getByTestId('table-resales').locator('tbody tr')).toHaveCount(Math.max(1, r.byResale.length));
      await expect(page.getByTestId('table-states').locator('tbody tr')).toHaveCount(Math.max(1, r.pipeline.byState.length));
      await expect(page.getByTestId('table-expiring').locator('tbody tr')).toHaveCount(Math.max(1, r.expiringSoon.length));

      // Each chart is an image with its figures in words.
      for (const chart of ['chart-months', 'chart-resales', 'chart-states']) {
        const img = page.getByTestId(chart).locator(':scope > svg[role="img"]');
        await expect(img).toBeVisible();
        expect(await img.getAttribute('aria-label')).toMatch(/: .+/);
        const box = await page.getByTestId(chart).boundingBox();
        expect(box!.width, `${chart} fits the screen`).toBeLessThanOrEqual(size.width);
      }
      // Beside its chart on a wide screen, below it on a phone.
      const chartBox = (await page.getByTestId('chart-states').boundingBox())!;
      const tableBox = (await page.getByTestId('table-states').boundingBox())!;
      if (size.width >= 1000) expect(tableBox.x).toBeGreaterThan(chartBox.x + chartBox.width - 1);
      else expect(tableBox.y).toBeGreaterThanOrEqual(chartBox.y + chartBox.height - 1);
      await expectNoSidewaysScroll(page);
      await shot(page, info, `reports-${slug}-${size.name}`);

      // The workbook of every table.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
      expect(download.suggestedFilename()).toBe(`Relatorios-${iso(from)}-a-${iso(to)}.xlsx`);
      const path = await download.path();
      expect(path).toBeTruthy();

      // A period the server refuses is refused on the screen, in pt-BR.
      await page.getByTestId('report-from').fill('30/11/2026');
      await page.getByTestId('report-to').fill('01/11/2026');
      await page.getByTestId('report-apply').click();
      await expect(page.getByTestId('report-period-error')).toHaveText('A data inicial deve ser igual ou anterior à data final.');
      expect(errors).toEqual([]);
    });
  }
}

test('a seller has no reports', async ({ page, request }) => {
  const seller = await apiSession(request, 'nordata', 'vendedor1');
  expect((await seller.call('GET', '/reports?from=2026-01-01&to=2026-01-31')).status).toBe(403);
  await login(page, 'nordata', 'vendedor1');
  await expect(page.getByTestId('menu-Reports')).toHaveCount(0);
  await page.goto(url('nordata', '/Painel/Reports'));
  await expect(page.getByTestId('forbidden-screen')).toBeVisible();
});
