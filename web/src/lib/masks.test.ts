import { describe, expect, it } from 'vitest';
import {
  CNPJ_MASK,
  CNPJ_MASKED_LENGTH,
  DATE_MASK,
  DATE_MASKED_LENGTH,
  PHONE_MASK,
  PHONE_MAX_LENGTH,
  QUANTITY_MASK,
  applyMask,
} from './masks';

describe('masks', () => {
  it('masks a CNPJ as 00.000.000/0000-00, 18 characters at most', () => {
    expect(applyMask('11222333000181', CNPJ_MASK)).toBe('11.222.333/0001-81');
    expect(applyMask('11222333000181999', CNPJ_MASK)).toBe('11.222.333/0001-81');
    expect(applyMask('11.222.333/0001-81', CNPJ_MASK)).toHaveLength(CNPJ_MASKED_LENGTH);
    // Letters belong to the alphanumeric CNPJ: kept, upper-cased (lib/cnpj.test.ts).
    expect(applyMask('11a222', CNPJ_MASK)).toBe('11.A22.2');
    expect(applyMask('11-222', CNPJ_MASK)).toBe('11.222');
  });

  it('masks a landline as (00) 0000-0000 and a mobile as (00) 00000-0000, 15 characters at most', () => {
    expect(applyMask('1133334444', PHONE_MASK)).toBe('(11) 3333-4444');
    expect(applyMask('11987654321', PHONE_MASK)).toBe('(11) 98765-4321');
    expect(applyMask('11987654321000', PHONE_MASK)).toBe('(11) 98765-4321');
    expect(applyMask('(11) 9 8765-4321', PHONE_MASK)).toBe('(11) 98765-4321');
    expect(applyMask('119876543219999', PHONE_MASK).length).toBeLessThanOrEqual(PHONE_MAX_LENGTH);
    expect(applyMask('ab11', PHONE_MASK)).toBe('(11');
  });

  it('types a date with automatic slashes, 8 characters', () => {
    expect(applyMask('010126', DATE_MASK)).toBe('01/01/26');
    expect(applyMask('31122030', DATE_MASK)).toBe('31/12/20');
    expect(applyMask('0101', DATE_MASK)).toBe('01/01');
    expect(applyMask('01/01/26', DATE_MASK)).toHaveLength(DATE_MASKED_LENGTH);
  });

  it('keeps only digits in a quantity', () => {
    expect(applyMask('12a3', QUANTITY_MASK)).toBe('123');
    expect(applyMask('123456789', QUANTITY_MASK)).toBe('1234567');
  });
});
