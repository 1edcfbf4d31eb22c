/** Password rule of spec §5: 8+ characters with a lowercase, an uppercase, a digit and one of @$!%*?&, and only those. */
export const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;

export const PASSWORD_RULE_MESSAGE =
  'A senha deve conter no mínimo 8 caracteres, incluindo ao menos uma letra maiúscula, um caracter especial e um número.';
export const PASSWORD_MISMATCH_MESSAGE = 'As senhas não conferem!';
/** Spec §8 "Password update". */
export const PASSWORD_UPDATED = 'Senha atualizada com sucesso';
export const PASSWORD_UPDATE_ERROR = 'Erro ao atualizar a senha';

export function isValidPassword(password: string): boolean {
  return PASSWORD_RULE.test(password);
}

/** The message to show for a password and its confirmation, or null when both are fine. */
export function passwordError(password: string, confirmation: string): string | null {
  if (!isValidPassword(password)) return PASSWORD_RULE_MESSAGE;
  if (password !== confirmation) return PASSWORD_MISMATCH_MESSAGE;
  return null;
}
