/**
 * The two ways an approved payment is undone live in the order lifecycle
 * (server/orders/lifecycle.ts, docs/orders.md): `refund` and `chargeBack`.
 * These names stay for the modules and tests that already use them.
 */
export { chargeBack as chargeBackApprovedBilling, refund as refundApprovedBilling } from "#server/orders/lifecycle";
