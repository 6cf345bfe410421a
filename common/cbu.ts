/**
 * CBU / CVU (22 digits) and alias checks, browser-safe like app/lib/cuit.ts.
 *
 * A CBU is two blocks, each ending in a modulo-10 check digit (BCRA):
 *   block 1 = bank (3) + branch (4) + check digit, weights 7 1 3 9 7 1 3;
 *   block 2 = account (13) + check digit, weights 3 9 7 1 3 9 7 1 3 9 7 1 3.
 * The check digit is (10 − sum mod 10) mod 10. A CVU (virtual accounts of
 * payment providers) has the same shape and digits and starts with "000".
 */
const WEIGHTS_1 = [7, 1, 3, 9, 7, 1, 3];
const WEIGHTS_2 = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3];

export function normalizeCbu(value: string): string {
  return value.replace(/[\s.-]/g, "");
}

function checkDigit(digits: string, weights: number[]): number {
  const sum = weights.reduce((acc, weight, i) => acc + weight * Number(digits[i]), 0);
  return (10 - (sum % 10)) % 10;
}

/** Both check digits of a 22-digit CBU or CVU (spaces, dots and hyphens ignored). */
export function isValidCbu(value: string): boolean {
  const cbu = normalizeCbu(value);
  if (!/^\d{22}$/.test(cbu)) return false;
  return checkDigit(cbu.slice(0, 7), WEIGHTS_1) === Number(cbu[7]) && checkDigit(cbu.slice(8, 21), WEIGHTS_2) === Number(cbu[21]);
}

/** A CVU: a valid key whose first three digits are 000 (no bank has code 000). */
export function isCvu(value: string): boolean {
  const cbu = normalizeCbu(value);
  return isValidCbu(cbu) && cbu.startsWith("000");
}

/** Builds a valid CBU from its bank (3), branch (4) and account (13) digits: tests and demo data. */
export function buildCbu(bank: string, branch: string, account: string): string {
  const first = `${bank.padStart(3, "0")}${branch.padStart(4, "0")}`;
  const second = account.padStart(13, "0");
  return `${first}${checkDigit(first, WEIGHTS_1)}${second}${checkDigit(second, WEIGHTS_2)}`;
}

/** Entity codes of the BCRA for the banks most used in Argentina. */
const BANKS: Record<string, string> = {
  "007": "Banco de Galicia y Buenos Aires",
  "011": "Banco de la Nación Argentina",
  "014": "Banco de la Provincia de Buenos Aires",
  "015": "ICBC",
  "016": "Citibank",
  "017": "BBVA Argentina",
  "020": "Banco de la Provincia de Córdoba",
  "027": "Banco Supervielle",
  "029": "Banco de la Ciudad de Buenos Aires",
  "034": "Banco Patagonia",
  "044": "Banco Hipotecario",
  "045": "Banco de San Juan",
  "065": "Banco Municipal de Rosario",
  "072": "Banco Santander Argentina",
  "083": "Banco del Chubut",
  "086": "Banco de Santa Cruz",
  "093": "Banco de La Pampa",
  "094": "Banco de Corrientes",
  "097": "Banco Provincia del Neuquén",
  "143": "Brubank",
  "150": "HSBC",
  "191": "Banco Credicoop",
  "198": "Banco de Valores",
  "259": "Banco Itaú",
  "285": "Banco Macro",
  "299": "Banco Comafi",
  "300": "Banco de Inversión y Comercio Exterior (BICE)",
  "301": "Banco Piano",
  "309": "Banco Rioja",
  "310": "Banco del Sol",
  "311": "Nuevo Banco del Chaco",
  "315": "Banco de Formosa",
  "321": "Banco de Santiago del Estero",
  "322": "Banco Industrial",
  "330": "Nuevo Banco de Santa Fe",
  "386": "Nuevo Banco de Entre Ríos",
  "389": "Banco Columbia",
};

/** Payment providers' codes inside a CVU (digits 4–7). */
const PROVIDERS: Record<string, string> = {
  "0003": "Mercado Pago",
};

/** The bank (or, for a CVU, the payment provider) a key belongs to, when we know its code. */
export function bankNameOf(value: string): string | null {
  const cbu = normalizeCbu(value);
  if (!isValidCbu(cbu)) return null;
  if (cbu.startsWith("000")) return PROVIDERS[cbu.slice(3, 7)] ?? null;
  return BANKS[cbu.slice(0, 3)] ?? null;
}

/** Alias CBU: 6 to 20 characters, letters (no ñ), digits, dots and hyphens. */
export const ALIAS_PATTERN = /^[A-Za-z0-9.-]{6,20}$/;

export function isValidAlias(value: string): boolean {
  return ALIAS_PATTERN.test(value.trim());
}

/** "2850590940090418135201" → "28505909 40090418135201" (its two blocks). */
export function formatCbu(value: string): string {
  const cbu = normalizeCbu(value);
  return cbu.length === 22 ? `${cbu.slice(0, 8)} ${cbu.slice(8)}` : value;
}

export const CBU_MESSAGES = {
  cbu: "Ingresá un CBU o CVU válido (22 números, revisá los dígitos verificadores)",
  alias: "El alias tiene que tener entre 6 y 20 caracteres: letras, números, puntos o guiones",
  bankName: "Escribí el nombre del banco",
} as const;
