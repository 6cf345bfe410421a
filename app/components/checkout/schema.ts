import { z } from "zod";
import { customFieldError, type CheckoutCustomField } from "#common/checkout";
import { checkTaxDetails } from "#common/invoicing";
import { attendeeSchema, optional, payerSchema } from "#common/validation";

/**
 * The payer-info form (`/checkout/payer-info/{eventSlug}`): the payer, one
 * holder per ticket when the event asks (`attendees[i].…`), the event's
 * custom fields (`customFields.{fieldId}`) and an optional coupon code. Built
 * from what the loader sends, so the browser (Conform) and the action check
 * the same thing; createOrder checks it all again.
 */
export function payerInfoSchema(options: { customFields: CheckoutCustomField[]; holders: number; facturaA?: boolean }) {
  const answers = Object.fromEntries(
    options.customFields.map((field) => [
      field.id,
      // Conform drops empty inputs: a missing answer is "" so that a required field still says so.
      z.preprocess(
        (v) => v ?? "",
        z.string().superRefine((value, ctx) => {
          const message = customFieldError(field, value);
          if (message) ctx.addIssue({ code: "custom", message });
        }),
      ),
    ]),
  );
  return payerSchema.extend({
    couponCode: optional(z.string().trim().max(50, "El código es demasiado largo")),
    // Conform leaves out a row whose inputs are all empty: an absent row is one to fill in.
    attendees: options.holders
      ? z.preprocess(
          (v) => Array.from({ length: options.holders }, (_, i) => (Array.isArray(v) ? (v[i] ?? {}) : {})),
          z.array(attendeeSchema),
        )
      : z.undefined().optional(),
    customFields: options.customFields.length ? z.preprocess((v) => v ?? {}, z.object(answers)) : z.undefined().optional(),
    invoice: options.facturaA ? invoiceSchema : z.undefined().optional(),
  });
}

/**
 * "Necesito factura A" (`invoice.wanted`) and its fields, checked with createOrder's rule (common/invoicing.ts)
 * only when the box is ticked: what was typed with the box off is ignored. Null: a consumer's invoice.
 */
const invoiceSchema = z.preprocess(
  (v) => (v && typeof v === "object" ? v : {}),
  z
    .object({ wanted: z.string().optional(), cuit: z.string().optional(), businessName: z.string().optional(), ivaConditionId: z.string().optional() })
    .superRefine((value, ctx) => {
      if (!value.wanted) return;
      const checked = checkTaxDetails(value);
      if (!checked.ok) for (const [key, message] of Object.entries(checked.errors)) ctx.addIssue({ code: "custom", path: [key], message });
    })
    .transform((value) => {
      if (!value.wanted) return null;
      const { cuit, businessName, ivaConditionId } = value;
      return { cuit, businessName, ivaConditionId: Number(ivaConditionId) };
    }),
);

/** Domain field keys (createOrder) → this form's input names. */
export function formFieldName(domainKey: string): string {
  return domainKey.replace(/^payer\./, "").replace(/^attendees\.(\d+)\./, "attendees[$1].");
}
