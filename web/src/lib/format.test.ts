import { describe, expect, it } from 'vitest';
import { formatBRL, formatCEP, formatCNPJ, formatDate, formatDateShort, formatDateTime, formatPhone, onlyDigits } from './format';

describe('format', () => {
  it('formats money in R$ with a comma and 2 decimals', () => {
    expect(formatBRL(1234.5)).toBe('R$ 1.234,50');
    expect(formatBRL('1000000.05')).toBe('R$ 1.000.000,05');
    expect(formatBRL('12,3')).toBe('R$ 12,30');
    expect(formatBRL('abc')).toBe('');
    expect(formatBRL(null)).toBe('');
  });
  it('formats dates', () => {
    expect(formatDate('2026-03-07')).toBe('07/03/2026');
    expect(formatDateShort('2026-03-07')).toBe('07/03/26');
    expect(formatDate('nope')).toBe('');
    expect(formatDate(undefined)).toBe('');
  });
  it('formats CNPJ, phone and CEP', () => {
    expect(formatCNPJ('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatCNPJ('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(formatCNPJ('123')).toBe('123');
    expect(formatPhone('11987654321')).toBe('(11) 98765-4321');
    expect(formatPhone(1133334444)).toBe('(11) 3333-4444');
    expect(formatPhone('12')).toBe('12');
    expect(formatCEP('30130010')).toBe('30130-010');
    expect(formatCEP('301')).toBe('301');
    expect(onlyDigits('(11) 9 8765-4321')).toBe('11987654321');
  });
});

describe("dates in Brasília's calendar, whatever the browser's zone", () => {
  it('runs in a far zone (src/test/setup.ts)', () => {
    expect(new Date('2026-03-05T02:30:00Z').getDate()).toBe(5);
    expect(-new Date('2026-03-05T02:30:00Z').getTimezoneOffset() / 60).toBe(14);
  });

  it('shows 23:30 of 04/03 in Brasília as 04/03, not as the 5th of another zone', () => {
    // 02:30 UTC on 05/03 = 23:30 on 04/03 in Brasília = 16:30 on 05/03 in Kiritimati.
    expect(formatDate('2026-03-05T02:30:00Z')).toBe('04/03/2026');
    expect(formatDateShort('2026-03-05T02:30:00Z')).toBe('04/03/26');
    expect(formatDateTime('2026-03-05T02:30:00Z')).toBe('04/03/2026 23:30');
    expect(formatDateTime('2026-03-05T03:00:00Z')).toBe('05/03/2026 00:00');
  });

  it('shows a calendar day (yyyy-mm-dd) as that day', () => {
    expect(formatDate('2026-01-01')).toBe('01/01/2026');
    expect(formatDate('2026-12-31')).toBe('31/12/2026');
  });
});
