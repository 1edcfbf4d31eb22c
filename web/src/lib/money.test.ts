import { describe, expect, it } from 'vitest';
import {
  MSG_MONEY_DECIMALS,
  MSG_MONEY_GROUPS,
  MSG_MONEY_INVALID,
  MSG_MONEY_NEGATIVE,
  MSG_MONEY_TOO_LARGE,
  formatMoneyInput,
  parseMoney,
} from './money';

describe('parseMoney: amounts as Brazilians type them', () => {
  it.each([
    ['1.234,56', 123456],
    ['1234,56', 123456],
    ['1234.56', 123456],
    ['1 234,56', 123456],
    ['1\u00a0234,56', 123456],
    ['1.234.567,89', 123456789],
    ['1 234 567,89', 123456789],
    ['1234.5', 123450],
    ['12.34', 1234],
    ['1234,5', 123450],
    ['1.234', 123400],
    ['1 234', 123400],
    ['12.345.678', 1234567800],
    ['1234', 123400],
    ['0,99', 99],
    [',5', 50],
    ['10,', 1000],
    ['R$ 1.234,56', 123456],
    ['R$1234,56', 123456],
    ['  7,00  ', 700],
  ])('accepts %j as %i centavos', (typed, cents) => {
    expect(parseMoney(typed)).toEqual({ ok: true, cents });
  });

  it.each([
    ['1,234', MSG_MONEY_DECIMALS],
    ['1234,567', MSG_MONEY_DECIMALS],
    ['12.3456', MSG_MONEY_DECIMALS],
    ['1234.567', MSG_MONEY_GROUPS],
    ['1.23,45', MSG_MONEY_GROUPS],
    ['1.2345,00', MSG_MONEY_GROUPS],
    ['1,234.56', MSG_MONEY_GROUPS],
    ['1.234 567,00', MSG_MONEY_GROUPS],
    ['1,2,3', MSG_MONEY_INVALID],
    ['abc', MSG_MONEY_INVALID],
    ['12a', MSG_MONEY_INVALID],
    ['1e5', MSG_MONEY_INVALID],
    ['US$ 10', MSG_MONEY_INVALID],
    ['-5', MSG_MONEY_NEGATIVE],
    [',', MSG_MONEY_INVALID],
    ['99.999.999.999,00', MSG_MONEY_TOO_LARGE],
  ])('refuses %j with a message', (typed, message) => {
    expect(parseMoney(typed)).toEqual({ ok: false, empty: false, message });
  });

  it('says empty for blank text', () => {
    expect(parseMoney('')).toEqual({ ok: false, empty: true });
    expect(parseMoney('  R$ ')).toEqual({ ok: false, empty: true });
  });

  it('never drops digits: 1.234,56 is not 1,23', () => {
    const r = parseMoney('1.234,56');
    expect(r.ok && r.cents).toBe(123456);
  });
});

describe('formatMoneyInput', () => {
  it('shows thousands dots and a decimal comma', () => {
    expect(formatMoneyInput(123456)).toBe('1.234,56');
    expect(formatMoneyInput(50)).toBe('0,50');
    expect(formatMoneyInput(123456789)).toBe('1.234.567,89');
  });
});
