/**
 * The fields' messages, patterns and document types without zod: the
 * browser imports them from here (the payer form checks required and email
 * natively and says it with these words) without carrying zod's ~23 kB;
 * `validation.ts` builds its schemas from the same constants and re-exports
 * them. Messages are the spec's words, with its spelling corrected on purpose
 * ("contener", "válido"; docs/wording.md).
 */
export const MESSAGES = {
  trim: "Este campo no puede contener espacios al inicio o al final",
  noSpaces: "Este campo no puede contener espacios",
  email: "Este campo debe ser un email válido",
  phone: "Ingresá un número de teléfono válido",
  document: "Ingresá un número de documento válido",
  required: "Este campo es requerido",
  minLength: (min: number) => `Este campo debe tener al menos ${min} caracteres`,
  // Not in the spec: our wording for the name and nickname patterns.
  name: "Ingresá solo letras (se permiten tildes, ñ y espacios entre palabras)",
  nickname: "Usá solo letras sin tildes, números, puntos, guiones y guiones bajos",
  documentType: "Elegí un tipo de documento",
  province: "Elegí una provincia",
} as const;

export const PATTERNS = {
  email: /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/,
  name: /^\p{L}+(?: +\p{L}+)*$/u,
  number: /^\d+$/,
  positiveNumber: /^\d*[1-9]\d*$/,
  url: /^(https?:\/\/)?([\p{L}\d-]+\.)+[a-z]{2,}(:\d+)?(\/\S*)?$/iu,
  phone: /^\+?[\d\s().-]{7,24}$/,
  phoneWithAreaCode: /^\+\d{1,3}\d{7,14}$/,
  identificationNumber: /^[0-9A-Z]{5,11}$/,
  pixelId: /^\d+$/,
  nickname: /^[A-Za-z0-9._-]{3,30}$/,
} as const;

export const DOCUMENT_TYPES = [
  { value: "dni", label: "DNI" },
  { value: "cuit", label: "CUIT" },
  { value: "cuil", label: "CUIL" },
  { value: "cdi", label: "CDI" },
  { value: "passport", label: "Pasaporte" },
  { value: "ci", label: "Cédula de identidad (extranjera)" },
  { value: "other", label: "Otro" },
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number]["value"];
