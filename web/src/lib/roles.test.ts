import { describe, expect, it } from 'vitest';
import { filterRolesForCompany, initials, roleLabels } from './roles';

describe('filterRolesForCompany', () => {
  it("keeps roles of the current company, 'all' or no brand", () => {
    const roles = [
      { name: 'RESALE', data: { brand: 'yep' } },
      { name: 'SELLER', data: { brand: 'nordata' } },
      { name: 'SUPPORT', data: { brand: 'all' } },
      { name: 'REPRESENTATIVE', data: { brand: '' } },
    ];
    expect(filterRolesForCompany(roles, 'yep')).toEqual(['RESALE', 'SUPPORT', 'REPRESENTATIVE']);
    expect(filterRolesForCompany(roles, 'nordata')).toEqual(['SELLER', 'SUPPORT', 'REPRESENTATIVE']);
  });

  it('treats a missing data or brand as empty and ignores duplicates', () => {
    expect(
      filterRolesForCompany(
        [{ name: 'SELLER' }, { name: 'SELLER', data: null }, { name: 'RESALE', data: { brand: null } }],
        'codexa',
      ),
    ).toEqual(['SELLER', 'RESALE']);
  });

  it('compares brands without regard to case', () => {
    expect(filterRolesForCompany([{ name: 'SELLER', data: { brand: 'YEP' } }], 'yep')).toEqual(['SELLER']);
  });
});

describe('initials', () => {
  it('takes at most two letters: first and last name', () => {
    expect(initials('Maria da Silva Souza')).toBe('MS');
    expect(initials('joão pedro')).toBe('JP');
    expect(initials('Ângela')).toBe('Â');
    expect(initials('  ')).toBe('?');
    expect(initials(undefined)).toBe('?');
    expect(initials('Revenda Demo Yep').length).toBeLessThanOrEqual(2);
  });
});

describe('roleLabels', () => {
  it('names roles in Portuguese', () => {
    expect(roleLabels(['SUPPORT', 'REPRESENTATIVE', 'UNKNOWN'])).toEqual(['Representante', 'Suporte']);
    expect(roleLabels(['RESALE', 'SELLER'])).toEqual(['Revenda', 'Vendedor']);
  });
});
