import { checkTaxDetails, issuesFacturaA, TAX_DETAILS_MESSAGES, type TaxDetails, type TaxDetailsInput } from "#common/invoicing";
import type { DbOrTx } from "#server/db/client";
import { billingTaxDetails } from "#server/db/schema";
import { env } from "#server/env";
import { Invalid } from "#server/errors";

/*
 * The buyer's Factura A (docs/invoicing.md, decision 217): checked before the order is placed, kept in
 * billing_tax_details, read by requestInvoice when the billing is paid.
 */

/** Whether the checkout offers a Factura A: only when Tribuna is a Responsable Inscripto (PLATFORM_IVA_CONDITION). */
export function offersFacturaA(): boolean {
  return issuesFacturaA(env().PLATFORM_IVA_CONDITION);
}

/**
 * createOrder's `invoice`, checked: BAD_USER_INPUT with the messages under `invoice.cuit`,
 * `invoice.businessName` and `invoice.ivaConditionId`; `reason` INVALID_CUIT when the CUIT is the problem.
 * Refused when Tribuna issues no A (a Monotributo issues C to everyone).
 */
export function parseTaxDetails(input: TaxDetailsInput): TaxDetails {
  if (!offersFacturaA()) throw new Invalid({ invoice: [TAX_DETAILS_MESSAGES.notOffered] }, TAX_DETAILS_MESSAGES.notOffered);
  const checked = checkTaxDetails(input);
  if (checked.ok) return checked.value;
  const fieldErrors = Object.fromEntries(Object.entries(checked.errors).map(([key, message]) => [`invoice.${key}`, [message]]));
  const error = new Invalid(fieldErrors, checked.errors.cuit ?? Object.values(checked.errors)[0]);
  if (checked.errors.cuit) error.reason = "INVALID_CUIT";
  throw error;
}

/** Keeps the billing's Factura A data; requestInvoice reads it when the billing is paid. */
export async function saveTaxDetails(tx: DbOrTx, billingId: string, details: TaxDetails) {
  await tx.insert(billingTaxDetails).values({ billingId, cuit: details.cuit, ivaCondition: details.ivaCondition, legalName: details.businessName });
}
