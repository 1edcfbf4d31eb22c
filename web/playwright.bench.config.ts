import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `make bench-web`: the first-load and big-list measurements of bench/*.bench.ts,
 * one at a time (figures are timings), against the server scripts/e2e.sh starts.
 */
export default defineConfig({
  ...base,
  testDir: './bench',
  testMatch: '**/*.bench.ts',
  fullyParallel: false,
  workers: 1,
  timeout: 120_000,
  outputDir: 'test-results/bench',
  // Before virtualisation one keystroke in a 10,000-row list took seconds.
  use: { ...base.use, actionTimeout: 300_000, trace: 'off' },
});
