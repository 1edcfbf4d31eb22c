// A far zone (UTC+14): a date shown in the browser's zone instead of Brasília's is off by a day
// for most of the day, so every test that shows a date checks the portal's calendar (lib/format.ts).
(globalThis as unknown as { process: { env: Record<string, string> } }).process.env.TZ = 'Pacific/Kiritimati';

import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import Cookies from 'js-cookie';
import { act } from 'react';
import { afterEach } from 'vitest';
import { clearToasts } from '@/components/toaster';

// findBy*/waitFor wait up to 5 s (1 s by default) for the same reason as vite.config.ts's testTimeout.
configure({ asyncUtilTimeout: 5_000 });

afterEach(async () => {
  // Toasts live outside the rendered tree: a case never sees the one before's.
  await act(() => clearToasts());
  cleanup();
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
  localStorage.clear();
  sessionStorage.clear();
});
