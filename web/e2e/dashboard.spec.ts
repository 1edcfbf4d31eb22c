import { expect, test, type Page } from '@playwright/test';
import { apiSession, decide, register, runTag, watchConsole, type Session } from './list-support';
import { brasiliaToday, login, randomCnpj, shots, url } from './support';
/**
 * Dashboard (spec §2 "Dashboard"): the chart shows the month's counts, the
 * totals their '+N', the 'Resumo' the last 11. Brand tagora.
 */
const SLUG = 'tagora';
// Each test registers and decides opportunities through the workflows first.
test.describe.configure({ timeout: 120_000 });

interface Figures {
  months: { month: number; approved: number; disapproved: number }[];
  approved: { total: number; thisMonth: number };
  disapproved: { total: number; thisMonth: number };
  analysis: { total: number; thisMonth: number };
}

async function figures(rep: Session): Promise<Figures> {
  const res = await rep.call<{ data: Figures }>('GET', `/dashboard/status?brand=${SLUG}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function expectMonth(page: Page, month: number, approved: number, disapproved: number): Promise<void> {
  await expect(page.getByTestId(`chart-point-approved-${month}`)).toHaveAttribute('data-value', String(approved));
  await expect(page.getByTestId(`chart-point-disapproved-${month}`)).toHaveAttribute('data-value', String(disapproved));
  await page.getByTestId(`chart-month-${month}`).hover();
  await expect(page.getByTestId('chart-tooltip-approved')).toHaveText(`Aprovadas: ${approved}`);
  await expect(page.getByTestId('chart-tooltip-disapproved')).toHaveText(`Reprovadas: ${disapproved}`);
}

test("the dashboard chart shows the month's counts and follows a decision", async ({ page, request }, info) => {
  const errors = watchConsole(page);
  const rep = await apiSession(request, SLUG, 'representante');
  const seller = await apiSession(request, SLUG, 'vendedor2');
  const before = await figures(rep);
  const current = before.months[before.months.length - 1];
  expect(current.month).toBe(before.months.length); // January to the current month

  await login(page, SLUG, 'representante');
  await expect(page).toHaveURL(url(SLUG, '/Painel/Dashboard'));
  await expect(page.getByTestId('monthly-chart')).toBeVisible();
  for (const m of before.months) await expect(page.getByTestId(`chart-month-${m.month}`)).toBeAttached();
  await expect(page.getByTestId(`chart-month-${current.month + 1}`)).toHaveCount(0);
  await expectMonth(page, current.month, current.approved, current.disapproved);
  const highest = Math.max(...before.months.flatMap((m) => [m.approved, m.disapproved]));
  await expect(page.getByTestId('monthly-chart')).toHaveAttribute('data-y-max', String(highest > 0 ? highest * 1.5 : 1));
  await expect(page.getByTestId('total-approved-value')).toHaveText(String(before.approved.total));
  await expect(page.getByTestId('total-approved-month')).toContainText(`+${before.approved.thisMonth}`);

  // One approval and one refusal this month.
  const tag = runTag('DSH');
  const approve = await register(seller, { name: `${tag} A`, cnpj: randomCnpj(), fantasyName: 'Loja A', corporateName: `A ${tag} Ltda` });
  const refuse = await register(seller, { name: `${tag} R`, cnpj: randomCnpj(), fantasyName: 'Loja R', corporateName: `R ${tag} Ltda` });
  await decide(rep, approve, { approve: true, name: `${tag} A` });
  await decide(rep, refuse, { approve: false, reason: 'Fora do perfil do projeto.' });
  const after = await figures(rep);
  const now = after.months[after.months.length - 1];
  expect(now.approved).toBe(current.approved + 1);
  expect(now.disapproved).toBe(current.disapproved + 1);

  await page.reload();
  await expectMonth(page, now.month, now.approved, now.disapproved);
  await expect(page.getByTestId('total-approved-value')).toHaveText(String(after.approved.total));
  await expect(page.getByTestId('total-approved-month')).toContainText(`+${after.approved.thisMonth}`);
  await expect(page.getByTestId('total-disapproved-value')).toHaveText(String(after.disapproved.total));
  await expect(page.getByTestId('total-disapproved-month')).toContainText(`+${after.disapproved.thisMonth}`);
  await expect(page.getByTestId('total-analysis-value')).toHaveText(String(after.analysis.total));

  // Tab 'Aprovados' keeps only the approvals.
  await page.getByRole('tab', { name: 'Aprovados' }).click();
  await expect(page.getByTestId(`chart-point-disapproved-${now.month}`)).toHaveCount(0);
  await expect(page.getByTestId(`chart-point-approved-${now.month}`)).toHaveAttribute('data-value', String(now.approved));
  await page.getByRole('tab', { name: 'Oportunidades' }).click();

  // 'Resumo': the last 11 (or all, when the brand has fewer), newest first, with actions.
  const all = await rep.call<{ total: number }>('GET', '/opportunity/all?amount=1');
  const summary = page.getByTestId('summary-row');
  await expect(summary).toHaveCount(Math.min(11, all.body.total));
  await expect(summary.nth(0)).toContainText(`R ${tag} Ltda`);
  await expect(summary.nth(0)).toContainText('Reprovado');
  await expect(summary.nth(1)).toContainText(`A ${tag} Ltda`);
  await expect(page.getByText('Ferramentas Disponíveis')).toBeVisible();
  await shots(page, info, 'dashboard');

  await summary.nth(1).getByTestId('summary-details').click();
  await expect(page).toHaveURL(url(SLUG, `/Painel/Opportunities/${approve}`));
  await page.goBack();
  await page.getByRole('link', { name: 'Visualizar lista' }).click();
  await expect(page).toHaveURL(url(SLUG, '/Painel/Opportunities'));
  expect(errors).toEqual([]);
});

test('the chart is reachable with the keyboard', async ({ page }) => {
  await login(page, SLUG, 'suporte');
  const month = brasiliaToday().month;
  const hit = page.getByTestId(`chart-month-${month}`);
  await hit.focus();
  await expect(hit).toBeFocused();
  await expect(page.getByTestId('chart-tooltip')).toBeVisible();
  await expect(hit).toHaveAttribute('aria-label', /aprovad/);
});
