import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/**
 * axe-core (WCAG 2.0/2.1 A and AA rules) in the page, from node_modules (no
 * download): e2e/screens.spec.ts and e2e/a11y.spec.ts on every screen,
 * e2e/lists-choice.spec.ts on the column chooser and the search dialog.
 */
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
// Evaluated through the DevTools protocol: the page's Content-Security-Policy refuses inline
// scripts, so page.addScriptTag (an inline <script>) would be blocked (docs/security-browser.md).
const AXE_SOURCE = readFileSync(AXE_PATH, 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

