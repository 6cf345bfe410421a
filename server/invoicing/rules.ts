import type { InvoiceKind, InvoiceLetter } from "#server/db/schema";
import { isValidCuit } from "#common/cuit";
import { FACTURA_A_CONDITIONS, RECEIVER_IVA } from "#common/invoicing";
import type { PlatformIvaCondition } from "./config";

/*
 * Which voucher, to whom and for how much (docs/invoicing.md, decision 213). Pure.
 */

export { RECEIVER_IVA };

/** The receiver conditions a Responsable Inscripto issues an A to (with their CUIT); any other gets a B. */
const RECEIVES_A: ReadonlySet<number> = new Set(FACTURA_A_CONDITIONS.map((c) => c.value));

/** DocTipo: CUIT, DNI, unidentified final consumer. */
export const DOC_TYPE = { CUIT: 80, DNI: 96, NONE: 99 } as const;

/** CbteTipo per letter and kind. */
export const VOUCHER_TYPE: Record<InvoiceLetter, Record<InvoiceKind, number>> = {
  A: { invoice: 1, credit_note: 3 },
  B: { invoice: 6, credit_note: 8 },
  C: { invoice: 11, credit_note: 13 },
};

export interface Receiver {
  docType: number;
  docNumber: string;
  ivaCondition: number;
}

/**
 * The letter: a Responsable Inscripto issues A to a receiver with a CUIT who is Responsable Inscripto or
 * Monotributo (RG 5003) and B to anyone else; a Monotributo or an Exento issues C to everyone.
 */
export function letterFor(issuer: PlatformIvaCondition, receiver: Receiver): InvoiceLetter {
  if (issuer !== "RESPONSABLE_INSCRIPTO") return "C";
  return receiver.docType === DOC_TYPE.CUIT && RECEIVES_A.has(receiver.ivaCondition) ? "A" : "B";
}

/** Net and VAT (21 %) of a charge whose price includes it; a C carries no VAT. Integer centavos, net + vat = total. */
export function amountsFor(letter: InvoiceLetter, total: number): { total: number; net: number; vat: number } {
  if (letter === "C") return { total, net: total, vat: 0 };
  const net = Math.round((total * 100) / 121);
  return { total, net, vat: total - net };
}

/** A CUIT's check digit is right (11 digits, dashes allowed): the one rule, common/cuit.ts. */
export { isValidCuit };

/**
 * The receiver: the billing's CUIT and IVA condition when the buyer gave them; otherwise a final consumer,
 * identified by the payer's DNI when there is one (DocTipo 96), or unidentified (99, number 0).
 */
export function receiverFor(details: { cuit: string; ivaCondition: number } | null, payer: { documentType: string; documentNumber: string }): Receiver {
  if (details) return { docType: DOC_TYPE.CUIT, docNumber: details.cuit, ivaCondition: details.ivaCondition };
  const dni = payer.documentNumber.replace(/\D/g, "");
  if (payer.documentType.toLowerCase() === "dni" && /^\d{7,8}$/.test(dni)) return { docType: DOC_TYPE.DNI, docNumber: dni, ivaCondition: RECEIVER_IVA.CONSUMIDOR_FINAL };
  return { docType: DOC_TYPE.NONE, docNumber: "0", ivaCondition: RECEIVER_IVA.CONSUMIDOR_FINAL };
}
