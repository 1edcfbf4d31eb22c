import { describe, expect, it } from 'vitest';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_RULE_MESSAGE, isValidPassword, passwordError } from './password';

describe('password rule', () => {
  it.each(['Oportuna@2026', 'Abcdef1!', 'aB3$aB3$aB3$'])('accepts %s', (p) => {
    expect(isValidPassword(p)).toBe(true);
  });

  it.each([
    ['too short', 'Ab1@xyz'],
    ['no uppercase', 'oportuna@2026'],
    ['no lowercase', 'OPORTUNA@2026'],
    ['no digit', 'Oportuna@abc'],
    ['no special', 'Oportuna2026'],
    ['other special', 'Oportuna#2026'],
    ['space', 'Oportuna @2026'],
  ])('rejects %s', (_, p) => {
    expect(isValidPassword(p)).toBe(false);
  });

  it('gives the spec messages', () => {
    expect(passwordError('abc', 'abc')).toBe(PASSWORD_RULE_MESSAGE);
    expect(passwordError('Oportuna@2026', 'Oportuna@2027')).toBe(PASSWORD_MISMATCH_MESSAGE);
    expect(passwordError('Oportuna@2026', 'Oportuna@2026')).toBeNull();
    expect(PASSWORD_RULE_MESSAGE).toBe(
      'A senha deve conter no mínimo 8 caracteres, incluindo ao menos uma letra maiúscula, um caracter especial e um número.',
    );
    expect(PASSWORD_MISMATCH_MESSAGE).toBe('As senhas não conferem!');
  });
});
