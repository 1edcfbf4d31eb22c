import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule that keeps features apart (eslint.config.js, docs/web.md
 * "Where code lives"), run on a few lines as if they sat in src/: it fires on
 * an import of another feature and lets shared code and the feature's own through.
 */
async function rules(filePath: string, code: string): Promise<string[]> {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

// Loading ESLint and its TypeScript parser takes seconds on a busy machine.
describe('no imports across features', { timeout: 60_000 }, () => {
  it('refuses another feature, by the alias or by climbing out', async () => {
    const viaAlias = await rules('src/features/dashboard/probe.ts', "export { getResale } from '@/features/resales/api/resale';\n");
    expect(viaAlias).toEqual([expect.stringMatching(/^no-restricted-imports: .*A feature does not import another/)]);
    const climbing = await rules('src/features/dashboard/api/probe.ts', "export { getResale } from '../../resales/api/resale';\n");
    expect(climbing).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
    const sibling = await rules('src/features/dashboard/probe.ts', "export { getResale } from '../resales/api/resale';\n");
    expect(sibling).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
  });

  it('refuses a feature in lib/ and components/', async () => {
    expect(await rules('src/lib/probe.ts', "export { getResale } from '@/features/resales/api/resale';\n")).toHaveLength(1);
    expect(await rules('src/components/probe.ts', "export { getResale } from '../features/resales/api/resale';\n")).toHaveLength(1);
  });

  it("lets a feature import its own files, lib/, components/, and the shell import features", async () => {
    const own = "export { getResale } from '../api/resale';\nexport { http } from '@/lib/http';\nexport { X } from '@/components/X';\nexport { Y } from '@/features/resales/api/resale';\n";
    expect(await rules('src/features/resales/list/probe.ts', own)).toEqual([]);
    expect(await rules('src/app/probe.ts', "export { Bell } from '@/features/notifications/NotificationBell';\n")).toEqual([]);
  });
});
