import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { email, PASSWORD, PORT } from './support';

/**
 * Helpers of the list, dashboard and history specs: API sessions of the
 * seeded users (to register and decide opportunities quickly), console
 * watching. Brands: lumetra (list), rotulus (history) and
 * tagora (dashboard); no other spec changes their opportunities.
 */

/** Node does not resolve <slug>.localhost: API calls go to the loopback address (the brand travels in the token). */
const API = `http://127.0.0.1:${PORT}`;

/** A short tag that makes this run's names unique. */
export function runTag(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`.toUpperCase();
}

export interface Session {
  slug: string;
  token: string;
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

/** Logs a seeded user in through the authenticator and returns an API caller for the brand. */
export async function apiSession(request: APIRequestContext, slug: string, user: string): Promise<Session> {
  const basic = Buffer.from(`${email(user, slug)}:${PASSWORD}`).toString('base64');
  const res = await request.get(`${API}/authenticator/login?brand=${slug}`, {
    headers: { Authorization: `Basic ${basic}` },
  });
  expect(res.status(), `login of ${user}@${slug}`).toBe(200);
  const token = ((await res.json()) as { data: { data: { access_token: string } } }).data.data.access_token;
  return {
    slug,
    token,
    async call<T>(method: string, path: string, body?: unknown) {
      const r = await request.fetch(`${API}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, company: slug },
        data: body,
      });
      const text = await r.text();
      return { status: r.status(), body: (text ? JSON.parse(text) : null) as T };
    },
  };
}

export interface Customer {
  name: string;
  cnpj: string;
  fantasyName: string;
  corporateName: string;
  state?: string;
  city?: string;
  probability?: number;
}

/** Registers an opportunity as a seller (or reseller); returns its id. */
export async function register(s: Session, c: Customer): Promise<string> {
  const conclusion = new Date(Date.now() + 60 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const res = await s.call<{ data: { id: string } }>('POST', '/opportunity/create', {
    name: c.name,
    justification: 'Teste de ponta a ponta',
    cnpj: c.cnpj,
    contact: 'Carla Nogueira',
    network: 'Não',
    email: 'compras@cliente-e2e.com.br',
    fantasyName: c.fantasyName,
    corporateName: c.corporateName,
    street: 'Avenida Central, 100',
    cep: '30130010',
    city: c.city ?? 'Belo Horizonte',
    state: c.state ?? 'MG',
    probabilityClosing: c.probability ?? 25,
    acceptedTerm: 'true',
    country: 'Brasil',
    phone: '31987650000',
    seller: 'Vanessa Lima',
    sellerSalesforceId: '',
    company: s.slug,
    opportunityOrigin: 'Partner',
    projects: [
      {
        aplication: 'Controle de estoque',
        specification: 'Leitura 1D/2D',
        homologated: true,
        haveCollector: false,
        partner: false,
        opportunityType: 'private',
        conclusionDate: conclusion,
        opportunityOrigin: 'Partner',
      },
    ],
    products: [{ partNumber: 'CT-40', description: 'Coletor de dados CT-40', amount: '2', price: '1500,00' }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

/** The representative approves (name and probability) or refuses (reason). */
export async function decide(
  rep: Session,
  id: string,
  decision: { approve: true; name: string; probability?: number } | { approve: false; reason: string },
): Promise<void> {
  const body = decision.approve
    ? { status: 'approved', name: decision.name, probabilityClosing: decision.probability ?? 75 }
    : { status: 'disapproved', reason: decision.reason };
  const res = await rep.call('PATCH', `/opportunity/${id}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Collects console errors and uncaught exceptions of a page. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}
