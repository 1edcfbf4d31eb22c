import { describe, expect, it } from 'vitest';
import { applyMask, CNPJ_MASK } from './masks';
import { cnpjCheckDigits, isValidCnpj, normalizeCnpj } from './cnpj';
import { formatCNPJ } from './format';

describe('CNPJ, numeric and alphanumeric', () => {
  it("computes the check digits with each character's ASCII code minus 48 (Receita's example 12.ABC.345/01DE-35)", () => {
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(cnpjCheckDigits('112223330001')).toBe('81');
    expect(cnpjCheckDigits('12ABC34501D')).toBeNull();
    expect(cnpjCheckDigits('12abc34501de')).toBeNull();
  });

  it.each(['12.ABC.345/01DE-35', '12ABC34501DE35', '12.abc.345/01de-35', '11.222.333/0001-81', '11222333000181'])(
    'accepts %s',
    (text) => expect(isValidCnpj(text)).toBe(true),
  );

  it.each(['12.ABC.345/01DE-36', '12.ABC.345/01DE-3A', 'AAAAAAAAAAAA00', '00.000.000/0000-00', '11.222.333/0001-82', '12.ABC.345/01DE'])(
    'refuses %s',
    (text) => expect(isValidCnpj(text)).toBe(false),
  );

  it('normalizes as the server does: letters upper-cased, punctuation dropped', () => {
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });

  it('masks letters as typed, upper-cased, and keeps the check digits numeric', () => {
    expect(applyMask('12abc34501de35', CNPJ_MASK)).toBe('12.ABC.345/01DE-35');
    expect(applyMask('11222333000181', CNPJ_MASK)).toBe('11.222.333/0001-81');
    expect(applyMask('12ABC34501DEXY', CNPJ_MASK)).toBe('12.ABC.345/01DE-');
    expect(applyMask('12#AB', CNPJ_MASK)).toBe('12.AB');
  });

  it('shows an alphanumeric CNPJ formatted', () => {
    expect(formatCNPJ('12abc34501de35')).toBe('12.ABC.345/01DE-35');
  });
});
