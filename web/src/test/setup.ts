// A far zone (UTC+14): a date shown in the browser's zone instead of Brasília's is off by a day
// for most of the day, so every test that shows a date checks the portal's calendar (lib/format.ts).
(globalThis as unknown as { process: { env: Record<string, string> } }).process.env.TZ = 'Pacific/Kiritimati';

import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import Cookies from 'js-cookie';
import { act } from 'react';
import { afterEach } from 'vitest';
import { clearToasts } from '@/components/toaster';
import { setCompany } from '@/lib/http';

// Test files share their worker's modules (vite.config.ts: isolate false), so Testing Library is
// imported once per worker while each file gets a fresh jsdom global: tell React again, for
// every file, that this is an act() environment (what Testing Library's import does once).
(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// findBy*/waitFor wait up to 5 s (1 s by default) for the same reason as vite.config.ts's testTimeout.
configure({ asyncUtilTimeout: 5_000 });

afterEach(async () => {
  // Toasts live outside the rendered tree: a case never sees the one before's.
  await act(() => clearToasts());
  cleanup();
  // Module state lives as long as the worker (isolate false): the brand header a case set is not the next one's.
  setCompany('');
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
  localStorage.clear();
  sessionStorage.clear();
});
