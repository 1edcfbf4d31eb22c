import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { OpportunityRow } from '../api/list';
import { VIRTUAL_THRESHOLD } from '@/components/VirtualRows';
import { OpportunityTable } from './OpportunityTable';

function rows(n: number): OpportunityRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `id-${i}`,
    status: 'analysis',
    name: `Oportunidade ${i}`,
    cnpj: '33444522000106',
    fantasyName: `Cliente ${i}`,
    corporateName: `Cliente ${i} Comércio de Equipamentos Ltda`,
    contact: 'Carla',
    email: 'c@x.com.br',
    state: 'MG',
    city: 'Belo Horizonte',
    probabilityClosing: 50,
    estimated: 1000 + i,
    register: '',
    seller: 'Vanessa Lima',
    resale: 'Revenda Modelo de Equipamentos de Automação Comercial Ltda',
    approveDate: null,
    validUntil: null,
    createdAt: '2026-03-01T12:00:00Z',
  }));
}

function table(list: OpportunityRow[]) {
  return render(
    <MemoryRouter>
      <OpportunityTable
        rows={list}
        sort={{ field: 'createdAt', direction: 'desc' }}
        onSort={() => {}}
        distributor="N/C"
      />
    </MemoryRouter>,
  );
}

describe('OpportunityTable', () => {
  it("renders only the rows in view of 'Todas' on 10,000 rows, keeping the table's height", () => {
    table(rows(10_000));
    const drawn = screen.getAllByTestId('opportunity-row');
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn.length).toBeLessThan(60);
    expect(drawn[0]).toHaveAttribute('data-id', 'id-0');
    expect(screen.getByTestId('opportunity-table')).toHaveAttribute('data-row-count', '10000');
    // The rows not drawn are a spacer as tall as they are.
    const spacer = document.querySelector<HTMLTableRowElement>('tr.virtual-spacer td');
    expect(Number.parseFloat(spacer?.style.height ?? '0')).toBeGreaterThan(9_000 * 40);
  }, 20_000);

  it('renders every row of a page up to the threshold', () => {
    table(rows(VIRTUAL_THRESHOLD));
    expect(screen.getAllByTestId('opportunity-row')).toHaveLength(VIRTUAL_THRESHOLD);
    expect(document.querySelector('tr.virtual-spacer')).toBeNull();
  }, 20_000); // 100 rows of Blueprint components in jsdom take seconds on a busy machine

  it('gives cut text its whole value as a tooltip', () => {
    table(rows(1));
    expect(screen.getByTestId('row-name')).toHaveAttribute('title', 'Oportunidade 0');
    expect(screen.getByText('Revenda Modelo de Equipamentos de Automação Comercial Ltda')).toHaveAttribute(
      'title',
      'Revenda Modelo de Equipamentos de Automação Comercial Ltda',
    );
  });
});
