import { render, screen, type RenderResult } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import Cookies from 'js-cookie';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { expect, vi } from 'vitest';
import { BrandContext, type Brand } from '@/lib/brand';
import { setCompany } from '@/lib/http';
import { createQueryClient } from '@/lib/queryClient';

export const TEST_BRAND: Brand = {
  slug: 'yep',
  name: 'Yep',
  title: 'Yep | Portal de Oportunidades',
  colors: { primary: '#123456', secondary: '#abcdef', primaryText: '#ffffff' },
  logo: '/brand-assets/yep/logo.svg',
  favicon: '/brand-assets/yep/favicon.svg',
};

/** A JSON Response. */
export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Replaces fetch; the handler answers each call. Returns the recorded calls. */
export function mockFetch(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
    };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

/** An unsigned JWT carrying exp (seconds). */
export function fakeJwt(exp: number): string {
  const enc = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ sub: 'u1', exp })}.sig`;
}

/** Stores a signed-in session as the login would. */
export function storeSession(opts: {
  roles: string[];
  company?: string;
  exp?: number;
  keep?: boolean;
  name?: string;
  token?: string;
  refreshToken?: string | null;
}) {
  const exp = opts.exp ?? Math.floor(Date.now() / 1000) + 8 * 3600;
  Cookies.set('token', opts.token ?? 'access-1', { path: '/' });
  Cookies.set('exp', String(exp), { path: '/' });
  if (opts.refreshToken !== null) Cookies.set('refresh_token', opts.refreshToken ?? 'refresh-1', { path: '/' });
  Cookies.set('company', opts.company ?? TEST_BRAND.slug, { path: '/' });
  Cookies.set('username', opts.name ?? 'Maria Souza', { path: '/' });
  Cookies.set('userid', 'u1', { path: '/' });
  Cookies.set('user_permissions', JSON.stringify(opts.roles), { path: '/' });
  Cookies.set('keep_connection', opts.keep === false ? 'false' : 'true', { path: '/' });
}

/** Shows the current location, for asserting redirects. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname + location.search}
    </div>
  );
}

/** Expects the element of each test id to show its text (a string: contained; a RegExp: matched). */
export function expectTexts(texts: Record<string, string | RegExp>) {
  for (const [testId, text] of Object.entries(texts)) expect(screen.getByTestId(testId), testId).toHaveTextContent(text);
}

/** Renders inside the brand context and a memory router at `path`. */
export function renderAt(path: string, routes: ReactElement, brand: Brand = TEST_BRAND): RenderResult {
  setCompany(brand.slug);
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <BrandContext.Provider value={brand}>
        <MemoryRouter initialEntries={[path]}>
          {routes}
          <LocationProbe />
        </MemoryRouter>
      </BrandContext.Provider>
    </QueryClientProvider>,
  );
}

/** A wrapper with a fresh query cache, for renderHook. */
export function withQueryClient() {
  const client = createQueryClient();
  return function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  };
}

export { Route, Routes };
