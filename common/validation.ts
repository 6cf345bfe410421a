import { z } from "zod";
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacters } from "./control-characters";
import { DOCUMENT_TYPES, MESSAGES, PATTERNS, type DocumentType } from "./fields";

/**
 * One schema per concept, shared by the browser (Conform) and the server
 * (domain functions and actions). Messages are the spec's words, with its
 * spelling corrected on purpose ("contener", "válido"; docs/wording.md).
 */
export { DOCUMENT_TYPES, MESSAGES, PATTERNS, type DocumentType };

const hasEdgeSpaces = (value: string) => value !== value.trim();

/**
 * A rule that stops at its failure: a field shows one message, the first
 * rule it breaks ("" says "Este campo es obligatorio", not that plus "email
 * inválido").
 */
const stop = (message: string) => ({ error: message, abort: true }) as const;

/** Required text: required, no control characters (line breaks only when `multiLine`), then no spaces at either end. */
export function requiredText(options: { min?: number; multiLine?: boolean } = {}) {
  let schema = z
    .string({ error: MESSAGES.required })
    .min(1, stop(MESSAGES.required))
    .refine((v) => !hasControlCharacters(v, { multiLine: options.multiLine }), stop(CONTROL_CHARACTER_MESSAGE))
    .refine((v) => !hasEdgeSpaces(v), stop(MESSAGES.trim));
  if (options.min) schema = schema.refine((v) => v.length >= options.min!, stop(MESSAGES.minLength(options.min)));
  return schema;
}

/** Optional text: empty or missing becomes undefined. */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());
}

export const emailSchema = z
  .string({ error: MESSAGES.required })
  .min(1, stop(MESSAGES.required))
  .refine((v) => !hasControlCharacters(v), stop(CONTROL_CHARACTER_MESSAGE))
  .refine((v) => !/\s/.test(v), stop(MESSAGES.noSpaces))
  .refine((v) => PATTERNS.email.test(v), stop(MESSAGES.email))
  .transform((v) => v.toLowerCase());

/**
 * Names keep their accents whatever way the keyboard composed them: "José"
 * typed as "e" + combining accent (macOS, pasted text) is stored as the
 * single letter "é".
 */
export const nameSchema = requiredText()
  .transform((v) => v.normalize("NFC"))
  .refine((v) => PATTERNS.name.test(v), stop(MESSAGES.name));

export const passwordSchema = requiredText({ min: 8 });

export const nicknameSchema = z
  .string({ error: MESSAGES.required })
  .min(1, stop(MESSAGES.required))
  .refine((v) => !/\s/.test(v), stop(MESSAGES.noSpaces))
  .refine((v) => v.length >= 3, stop(MESSAGES.minLength(3)))
  .refine((v) => PATTERNS.nickname.test(v), stop(MESSAGES.nickname));

const phoneDigits = (v: string) => v.replace(/\D/g, "");

export const phoneSchema = requiredText().refine(
  (v) => PATTERNS.phone.test(v) && phoneDigits(v).length >= 7 && phoneDigits(v).length <= 17,
  stop(MESSAGES.phone),
);

/** "+54 9 11 5555-1234" is accepted: separators are ignored, digits counted. */
export const phoneWithAreaCodeSchema = requiredText().refine(
  (v) => PATTERNS.phoneWithAreaCode.test(v.replace(/[\s().-]/g, "")),
  stop(MESSAGES.phone),
);

/**
 * DNI, CUIT, CUIL, passport… Dots, dashes and spaces people type are dropped
 * ("20-12345678-6" → "20123456786") before checking 5 to 11 characters.
 */
export const identificationNumberSchema = requiredText()
  .transform((v) => v.replace(/[\s.-]/g, ""))
  .refine((v) => PATTERNS.identificationNumber.test(v), stop(MESSAGES.document));

/** The spec's 24 codes (ISO 3166-2:AR, with AR-CF for the city of Buenos Aires). */
export const PROVINCES = [
  { value: "AR-CF", label: "Ciudad Autónoma de Buenos Aires" },
  { value: "AR-B", label: "Buenos Aires" },
  { value: "AR-K", label: "Catamarca" },
  { value: "AR-H", label: "Chaco" },
  { value: "AR-U", label: "Chubut" },
  { value: "AR-X", label: "Córdoba" },
  { value: "AR-W", label: "Corrientes" },
  { value: "AR-E", label: "Entre Ríos" },
  { value: "AR-P", label: "Formosa" },
  { value: "AR-Y", label: "Jujuy" },
  { value: "AR-L", label: "La Pampa" },
  { value: "AR-F", label: "La Rioja" },
  { value: "AR-M", label: "Mendoza" },
  { value: "AR-N", label: "Misiones" },
  { value: "AR-Q", label: "Neuquén" },
  { value: "AR-R", label: "Río Negro" },
  { value: "AR-A", label: "Salta" },
  { value: "AR-J", label: "San Juan" },
  { value: "AR-D", label: "San Luis" },
  { value: "AR-Z", label: "Santa Cruz" },
  { value: "AR-S", label: "Santa Fe" },
  { value: "AR-G", label: "Santiago del Estero" },
  { value: "AR-V", label: "Tierra del Fuego" },
  { value: "AR-T", label: "Tucumán" },
] as const;
export type ProvinceCode = (typeof PROVINCES)[number]["value"];

export const documentTypeSchema = z.enum(
  DOCUMENT_TYPES.map((d) => d.value) as [DocumentType, ...DocumentType[]],
  { error: MESSAGES.documentType },
);

export const provinceSchema = z.enum(PROVINCES.map((p) => p.value) as [ProvinceCode, ...ProvinceCode[]], {
  error: MESSAGES.province,
});

export function isValidPixelId(value: string | null | undefined): value is string {
  return typeof value === "string" && PATTERNS.pixelId.test(value);
}


/** The profile a person edits (`updateUser`, `/cuenta/mi-cuenta`): one schema for the page and the domain. */
export const profileSchema = z.object({
  firstName: nameSchema,
  lastName: nameSchema,
  email: emailSchema,
  nickname: optional(nicknameSchema),
  documentType: optional(documentTypeSchema),
  documentNumber: optional(identificationNumberSchema),
  address: optional(requiredText()),
  state: optional(provinceSchema),
  phoneNumber: optional(phoneSchema),
});

/** Who pays a purchase (checkout form and `createOrder`): one schema for the page and the domain. */
export const payerSchema = z.object({
  firstName: nameSchema,
  lastName: nameSchema,
  email: emailSchema,
  documentType: documentTypeSchema,
  documentNumber: identificationNumberSchema,
  phoneNumber: phoneSchema,
});

/** The holder of one ticket, when the event asks for one per ticket. */
export const attendeeSchema = z.object({
  firstName: nameSchema,
  lastName: nameSchema,
  documentType: documentTypeSchema,
  documentNumber: identificationNumberSchema,
  email: optional(emailSchema),
});
