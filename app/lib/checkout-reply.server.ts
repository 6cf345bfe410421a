import type { SubmissionResult } from "@conform-to/react";
import { redirect } from "@remix-run/node";
import { GENERIC_ERROR, isDomainError, type DomainError } from "#server/errors";
import { CONFLICT_FORM_STATUS } from "./domain-errors.server";
import { withBillingToken } from "#server/auth/billing-access";
import type { CheckoutStarted } from "#server/orders/checkout";
import { formFieldName } from "#app/components/checkout/schema";

/** The payer's own inputs: a domain message for one of them goes next to it. */
const PAYER_INPUTS = ["firstName", "lastName", "email", "documentType", "documentNumber", "phoneNumber", "couponCode"];

/**
 * After `startCheckout` (tickets or menu): to the summary with the access
 * token, or straight to the confirmation when nothing is due.
 */
export function redirectToCheckout(started: CheckoutStarted, headers: Headers) {
  const id = started.billing.id;
  const to = started.billing.status === "pending" ? `/checkout/${id}` : `/checkout/status/approved?billingId=${id}`;
  return redirect(withBillingToken(to, id), { headers });
}

/**
 * A domain refusal (`startCheckout`, `previewOrder`) as the payer form shows
 * it: each message next to its input when the form has one (`isField` says
 * which others it has), the rest above the form.
 */
export function domainFormErrors(error: DomainError, isField: (name: string) => boolean = () => false): { fieldErrors: Record<string, string[]>; formErrors: string[] } {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
    const name = formFieldName(key);
    if (PAYER_INPUTS.includes(name) || isField(name)) fieldErrors[name] = messages;
    else for (const m of messages) if (!formErrors.includes(m)) formErrors.push(m);
  }
  if (!Object.keys(fieldErrors).length && !formErrors.length) formErrors.push(error.message);
  return { fieldErrors, formErrors };
}

/**
 * A failed `startCheckout` as the payer form shows it (`domainFormErrors`):
 * out of stock is 409, an unexpected error 500 with the generic message.
 */
export function checkoutFailure(
  error: unknown,
  submission: { reply(options?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] }): SubmissionResult<string[]> },
  isField: (name: string) => boolean = () => false,
): { result: SubmissionResult<string[]>; status: number } {
  if (!isDomainError(error)) {
    console.error(error);
    return { result: submission.reply({ formErrors: [GENERIC_ERROR] }), status: 500 };
  }
  return { result: submission.reply(domainFormErrors(error, isField)), status: CONFLICT_FORM_STATUS[error.code] };
}

/** What a payer form starts with: the signed-in person's own details, else empty (DNI as the document type). */
export function payerDefaults(user?: { firstName?: string | null; lastName?: string | null; email?: string | null; documentType?: string | null; documentNumber?: string | null; phoneNumber?: string | null } | null) {
  return {
    firstName: user?.firstName ?? "",
    lastName: user?.lastName ?? "",
    email: user?.email ?? "",
    documentType: user?.documentType ?? "dni",
    documentNumber: user?.documentNumber ?? "",
    phoneNumber: user?.phoneNumber ?? "",
  };
}
