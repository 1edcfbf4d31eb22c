/**
 * CNPJ, numeric and alphanumeric (in force since July 2026): 12 characters
 * [0-9A-Z] then 2 numeric check digits, each character weighing its ASCII code
 * minus 48 ('0'–'9' keep their value, 'A' weighs 17). Same rules as the
 * server's cnpj/cnpj.go: letters are upper-cased, everything else dropped.
 */

/** The CNPJ's 14 characters as typed, without punctuation, upper-cased: '12.abc.345/01de-35' → '12ABC34501DE35'. */
export function normalizeCnpj(text: string | null | undefined): string {
  return String(text ?? '')
    .replace(/[^0-9A-Za-z]/g, '')
    .toUpperCase();
}

function checkDigit(base: string): number {
  let sum = 0;
  let w = 2;
  for (let i = base.length - 1; i >= 0; i--) {
    sum += (base.charCodeAt(i) - 48) * w;
    w = w === 9 ? 2 : w + 1;
  }
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two check digits of a 12-character base [0-9A-Z]; null for anything else. */
export function cnpjCheckDigits(base: string): string | null {
  if (!/^[0-9A-Z]{12}$/.test(base)) return null;
  const d1 = checkDigit(base);
  const d2 = checkDigit(base + d1);
  return `${d1}${d2}`;
}

/** Whether the text (masked or not) is a CNPJ with correct check digits; one character repeated 14 times is refused. */
export function isValidCnpj(text: string): boolean {
  const n = normalizeCnpj(text);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(n) || /^(.)\1{13}$/.test(n)) return false;
  return cnpjCheckDigits(n.slice(0, 12)) === n.slice(12);
}
