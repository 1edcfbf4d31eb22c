import { describe, expect, it } from 'vitest';
import { loginPath, returnPathFrom, safeReturnPath, samePath } from './returnPath';

describe('return address of the login', () => {
  it('keeps a path of the panel with its query and fragment', () => {
    expect(safeReturnPath('/Painel/Opportunities/6f1c')).toBe('/Painel/Opportunities/6f1c');
    expect(safeReturnPath('/Painel/Opportunities/6f1c?renovation=true')).toBe('/Painel/Opportunities/6f1c?renovation=true');
    expect(safeReturnPath('/Painel/Resales/details?id=9#x')).toBe('/Painel/Resales/details?id=9#x');
  });

  it.each([
    '//evil.example/Painel/x',
    '/\\evil.example',
    '/\\/evil.example',
    'https://evil.example/Painel/x',
    'http:/evil.example',
    'javascript:alert(1)',
    ' /Painel/x',
    '/\t/evil.example',
    '/Painel/\n/x',
    '',
    'Painel/x',
    '/',
    '/Contact',
    '/Painel/../Contact',
  ])('refuses %j', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });

  it('reads /Painel/./x as the panel path it is', () => {
    expect(safeReturnPath('/Painel/./Opportunities')).toBe('/Painel/Opportunities');
  });

  it('samePath takes any same-origin path and refuses other hosts', () => {
    expect(samePath('/Painel/Resales/details?id=1')).toBe('/Painel/Resales/details?id=1');
    expect(samePath('/Contact')).toBe('/Contact');
    expect(samePath('//evil.example')).toBeNull();
    expect(samePath('/\\evil.example')).toBeNull();
    expect(samePath('https://evil.example')).toBeNull();
  });

  it('writes and reads the login address', () => {
    const login = loginPath('/Painel/Opportunities/6f1c?renovation=true');
    expect(login).toBe('/?next=%2FPainel%2FOpportunities%2F6f1c%3Frenovation%3Dtrue');
    expect(returnPathFrom(login.slice(1))).toBe('/Painel/Opportunities/6f1c?renovation=true');
    expect(loginPath('//evil.example')).toBe('/');
    expect(returnPathFrom('?next=%2F%2Fevil.example')).toBeNull();
    expect(returnPathFrom('?next=https%3A%2F%2Fevil.example')).toBeNull();
    expect(returnPathFrom('')).toBeNull();
  });
});
