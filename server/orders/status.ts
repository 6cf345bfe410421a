import type { BillingStatus, OrderStatus } from "#server/db/schema";

export type DisplayStatus = "pending" | "approved" | "cancelled" | "expired" | "refunded" | "orphan" | "charged_back";

/** The spec's table (docs/orders.md, "Los estados"): display status from (order status, billing status). */
const TABLE: Record<string, DisplayStatus> = {
  "draft/pending": "pending",
  "billed/approved": "approved",
  "closed/cancelled": "cancelled",
  "expired/cancelled": "expired",
  "billed/refunded": "refunded",
  "orphan/pending": "orphan",
  "billed/charged_back": "charged_back",
};

/** Any pair not in the table displays nothing (null). */
export function displayStatus(orderStatus: OrderStatus | string | null | undefined, billingStatus: BillingStatus | string | null | undefined): DisplayStatus | null {
  if (!orderStatus || !billingStatus) return null;
  return TABLE[`${orderStatus}/${billingStatus}`] ?? null;
}
