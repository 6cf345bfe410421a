import { z } from "zod";
import { CBU_MESSAGES, isValidAlias, isValidCbu, normalizeCbu } from "./cbu";
import { INVALID_CUIT, isValidCuit, normalizeCuit } from "./cuit";
import { MESSAGES, optional } from "./validation";

/**
 * A bank account's field rules, pure so the back office's form checks them
 * in the browser (Conform) exactly as server/payouts/bank-accounts.ts does.
 */

export const BANK_ACCOUNT_MESSAGES = {
  ...CBU_MESSAGES,
  cuit: INVALID_CUIT,
  duplicate: "Ya cargaste una cuenta con ese CBU o CVU",
  notFound: "No encontramos la cuenta bancaria.",
  deleted: "Borramos la cuenta bancaria.",
} as const;

const text = (max: number) => z.string({ error: MESSAGES.required }).trim().min(1, MESSAGES.required).max(max, `Usá hasta ${max} caracteres`);
const flag = z.preprocess((v) => v === true || v === "true" || v === "on" || v === "1", z.boolean());

export const bankAccountFields = {
  bankName: optional(z.string().trim().max(100, "Usá hasta 100 caracteres")),
  cbu: z
    .string({ error: MESSAGES.required })
    .transform(normalizeCbu)
    .refine((v) => v.length > 0, MESSAGES.required)
    .refine(isValidCbu, BANK_ACCOUNT_MESSAGES.cbu),
  alias: optional(z.string().trim().refine(isValidAlias, BANK_ACCOUNT_MESSAGES.alias)),
  holderName: text(120),
  holderCuit: z
    .string({ error: MESSAGES.required })
    .transform(normalizeCuit)
    .refine((v) => v.length > 0, MESSAGES.required)
    .refine(isValidCuit, INVALID_CUIT),
  forTicketTransfers: flag.optional(),
};

