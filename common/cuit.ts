/**
 * CUIT/CUIL: 11 digits, a known type prefix and a modulo-11 check digit
 * (AFIP's algorithm). Browser-safe so forms can check it before posting.
 */
const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
const PREFIXES = new Set(["20", "23", "24", "25", "26", "27", "30", "33", "34"]);

export function normalizeCuit(value: string): string {
  return value.replace(/[\s.-]/g, "");
}

export function cuitCheckDigit(firstTen: string): number | null {
  const sum = WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(firstTen[i]), 0);
  const digit = 11 - (sum % 11);
  if (digit === 11) return 0;
  if (digit === 10) return null; // AFIP never issues these: the prefix changes to 23/33 instead
  return digit;
}

export function isValidCuit(value: string): boolean {
  const cuit = normalizeCuit(value);
  if (!/^\d{11}$/.test(cuit) || !PREFIXES.has(cuit.slice(0, 2))) return false;
  return cuitCheckDigit(cuit.slice(0, 10)) === Number(cuit[10]);
}

/** "20123456786" → "20-12345678-6" */
export function formatCuit(value: string): string {
  const cuit = normalizeCuit(value);
  return cuit.length === 11 ? `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}` : value;
}

export const INVALID_CUIT = "Ingresá un CUIT válido (11 números, revisá el dígito verificador)";
