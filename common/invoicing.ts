import { isValidCuit, normalizeCuit } from "./cuit";

/*
 * The Factura A a buyer may ask for at checkout (docs/invoicing.md, decision 217): the receiver conditions
 * ARCA takes for an A and the one rule the payer form and createOrder check it with. Browser-safe.
 */

/** CondicionIVAReceptorId (RG 5616), the ones we use by name. */
export const RECEIVER_IVA = {
  RESPONSABLE_INSCRIPTO: 1,
  EXENTO: 4,
  CONSUMIDOR_FINAL: 5,
  MONOTRIBUTO: 6,
  MONOTRIBUTO_SOCIAL: 13,
  MONOTRIBUTO_PROMOVIDO: 16,
} as const;

/** The receiver conditions a Responsable Inscripto issues an A to (RG 5003), with ARCA's names: the checkout's select. */
export const FACTURA_A_CONDITIONS: readonly { value: number; label: string }[] = [
  { value: RECEIVER_IVA.RESPONSABLE_INSCRIPTO, label: "IVA Responsable Inscripto" },
  { value: RECEIVER_IVA.MONOTRIBUTO, label: "Responsable Monotributo" },
  { value: RECEIVER_IVA.MONOTRIBUTO_SOCIAL, label: "Monotributista Social" },
  { value: RECEIVER_IVA.MONOTRIBUTO_PROMOVIDO, label: "Monotributo Trabajador Independiente Promovido" },
];

/** The platform's own condition (PLATFORM_IVA_CONDITION). */
export type IssuerIvaCondition = "RESPONSABLE_INSCRIPTO" | "MONOTRIBUTO" | "EXENTO";

/** Only a Responsable Inscripto issues A; a Monotributo or an Exento issues C to everyone, so there is nothing to ask. */
export function issuesFacturaA(issuer: IssuerIvaCondition): boolean {
  return issuer === "RESPONSABLE_INSCRIPTO";
}

export const TAX_DETAILS_MESSAGES = {
  cuitMissing: "Ingresá el CUIT al que va la factura.",
  cuitFormat: "Ingresá los 11 números del CUIT.",
  cuitCheckDigit: "Revisá el CUIT: el dígito verificador no coincide.",
  businessName: "Ingresá la razón social.",
  businessNameTooLong: "Escribí hasta 200 caracteres.",
  ivaCondition: "Elegí tu condición frente al IVA.",
  notOffered: "Tribuna no emite Factura A: tu comprobante sale como Factura C.",
} as const;

export interface TaxDetailsInput {
  cuit?: unknown;
  businessName?: unknown;
  ivaConditionId?: unknown;
}

export interface TaxDetails {
  /** 11 digits, no dashes. */
  cuit: string;
  businessName: string;
  ivaCondition: number;
}

/**
 * What the buyer typed for a Factura A, checked: the CUIT's check digit, a razón social and a condition ARCA
 * takes for an A. Errors by field (`cuit`, `businessName`, `ivaConditionId`), in the form's words.
 */
export function checkTaxDetails(input: TaxDetailsInput): { ok: true; value: TaxDetails } | { ok: false; errors: Partial<Record<keyof TaxDetailsInput, string>> } {
  const errors: Partial<Record<keyof TaxDetailsInput, string>> = {};
  const cuit = normalizeCuit(typeof input.cuit === "string" ? input.cuit : "");
  if (!cuit) errors.cuit = TAX_DETAILS_MESSAGES.cuitMissing;
  else if (!/^\d{11}$/.test(cuit)) errors.cuit = TAX_DETAILS_MESSAGES.cuitFormat;
  else if (!isValidCuit(cuit)) errors.cuit = TAX_DETAILS_MESSAGES.cuitCheckDigit;
  const businessName = typeof input.businessName === "string" ? input.businessName.trim() : "";
  if (!businessName) errors.businessName = TAX_DETAILS_MESSAGES.businessName;
  else if (businessName.length > 200) errors.businessName = TAX_DETAILS_MESSAGES.businessNameTooLong;
  const ivaCondition = Number(input.ivaConditionId);
  if (!FACTURA_A_CONDITIONS.some((c) => c.value === ivaCondition)) errors.ivaConditionId = TAX_DETAILS_MESSAGES.ivaCondition;
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, value: { cuit, businessName, ivaCondition } };
}

/** What retrying a rejected voucher from /admin/facturas says (the page and the domain share them). */
export const RETRY_MESSAGES = {
  onlyPlatform: "Solo el equipo de Tribuna puede reintentar comprobantes.",
  notFound: "No encontramos ese comprobante.",
  notRejected: "Solo se puede reintentar un comprobante rechazado: este ya no lo está.",
  queued: "Lo mandamos de nuevo a ARCA: en unos segundos cambia su estado.",
} as const;
