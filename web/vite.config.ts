import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { noIconNames } from './build/noIconNames.ts';
import { precompress } from './build/precompress.ts';
import { trimBlueprintCss } from './build/trimBlueprintCss.ts';

// The Go server (`oportuna api` / `oportuna dev`) answers these prefixes; the
// dev server forwards them so `npm run dev` works against a running backend.
const backend = process.env.OPORTUNA_BACKEND ?? 'http://localhost:8080';
const proxied = ['/api', '/authenticator', '/mailer', '/brand-assets'];

export default defineConfig({
  plugins: [react(), noIconNames(), precompress()],
  // `@/lib/http` is `src/lib/http` (tsconfig.app.json "paths" says the same to TypeScript).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // Absolute asset URLs (/assets/...): index.html is served for every path.
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the server names a public route's chunks in its page (api/routepreload.go).
    manifest: true,
  },
  css: {
    postcss: { plugins: [trimBlueprintCss()] },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: backend }])),
  },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Generous waits: on a loaded 2-core CI machine typing into a form takes seconds; an
    // assertion that fails still fails, only later.
    testTimeout: 30_000,
    // One module graph per worker, not per file (Blueprint, React and the app are imported once
    // per worker instead of 78 times): the suite runs about 3× faster. Each file still gets its own
    // jsdom; src/test/setup.ts resets what outlives a case (DOM, storage, cookies, toasts, the
    // brand header, React's act flag). Two workers: make check runs on 2 cores.
    isolate: false,
    maxWorkers: 2,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
