import { defineConfig } from '@playwright/test';

/**
 * Browser tests against a running server (scripts/e2e.sh starts it and sets
 * E2E_PORT). Debian's Chromium is used; Playwright never downloads a browser.
 * Each brand is opened on its own host: http://<slug>.localhost:<port>/.
 */
const port = Number(process.env.E2E_PORT ?? 8080);

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 2,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://nordata.localhost:${port}`,
    browserName: 'chromium',
    locale: 'pt-BR',
    // Dialogs without their 300 ms entrance (styles/brand.css): a click lands
    // on a button that is where it will stay. A test of motion asks for it.
    reducedMotion: 'reduce',
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    // A trace of every test, kept for the failed ones, to open locally with
    // `npx playwright show-trace`. CI keeps no file of a run, and recording
    // them costs a quarter of the run (6.3 min without, 8.1 min with, 139 tests).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
});
