import { describe, expect, it } from 'vitest';
import {
  MSG_CHECK_CNPJ,
  MSG_CHECK_EMAIL,
  MSG_CHECK_NAME,
  MSG_CHECK_PHONE,
  cnpjError,
  emailError,
  isPersonValid,
  mobileError,
  nameError,
  personErrors,
  phoneDigits,
} from './personFields';

describe('partner form rules (spec §5)', () => {
  it('name: required', () => {
    expect(nameError('')).toBe(MSG_CHECK_NAME);
    expect(nameError('   ')).toBe(MSG_CHECK_NAME);
    expect(nameError('x'.repeat(121))).toBe(MSG_CHECK_NAME);
    expect(nameError(' Ana ')).toBeNull();
  });

  it('e-mail: valid, with a 2–4 letter top-level domain', () => {
    expect(emailError('')).toBe(MSG_CHECK_EMAIL);
    expect(emailError('ana@')).toBe(MSG_CHECK_EMAIL);
    expect(emailError('ana@alfa')).toBe(MSG_CHECK_EMAIL);
    expect(emailError('ana@alfa.c')).toBe(MSG_CHECK_EMAIL);
    expect(emailError('ana@alfa.company')).toBe(MSG_CHECK_EMAIL);
    expect(emailError('ana alfa@x.com')).toBe(MSG_CHECK_EMAIL);
    expect(emailError('ana@alfa.com.br')).toBeNull();
    expect(emailError(' ana@alfa.com ')).toBeNull();
  });

  it('phone: exactly 15 characters, (00) 00000-0000, area code not 0X', () => {
    expect(mobileError('')).toBe(MSG_CHECK_PHONE);
    expect(mobileError('(11) 9876-5432')).toBe(MSG_CHECK_PHONE);
    expect(mobileError('(11) 98765-432')).toBe(MSG_CHECK_PHONE);
    expect(mobileError('(01) 98765-4321')).toBe(MSG_CHECK_PHONE);
    expect(mobileError('11987654321')).toBe(MSG_CHECK_PHONE);
    expect(mobileError('(11) 98765-4321')).toBeNull();
    expect(phoneDigits('(11) 98765-4321')).toBe('11987654321');
  });

  it('CNPJ: 18 characters with valid check digits', () => {
    expect(cnpjError('11.222.333/0001-8')).toBe(MSG_CHECK_CNPJ);
    expect(cnpjError('11.222.333/0001-82')).toBe(MSG_CHECK_CNPJ);
    expect(cnpjError('11.111.111/1111-11')).toBe(MSG_CHECK_CNPJ);
    expect(cnpjError('11.222.333/0001-81')).toBeNull();
  });

  it('lists every failing field, and is valid only when none fails', () => {
    expect(personErrors({ name: '', email: 'x', phone: '' })).toEqual({
      name: MSG_CHECK_NAME,
      email: MSG_CHECK_EMAIL,
      phone: MSG_CHECK_PHONE,
    });
    expect(isPersonValid({ name: 'Ana', email: 'ana@alfa.com.br', phone: '(11) 98765-432' })).toBe(false);
    expect(isPersonValid({ name: 'Ana', email: 'ana@alfa.com.br', phone: '(11) 98765-4321' })).toBe(true);
  });
});
