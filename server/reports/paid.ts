import { and, eq, sql, type SQL } from "drizzle-orm";
import { billings, orders } from "#server/db/schema";

/*
 * The one rule every money figure of the back office counts by (decision 153): a
 * sale is a paid order — billed, not an invitation, with its payment still
 * approved — whatever it was paid with (Mercado Pago, a bank transfer, cash to a
 * promoter, nothing at all). What it brings the organization is its price after
 * the coupon's discount, without our service fee: exactly what its ledger
 * entries net to (payment + service_fee, `server/ledger/ledger.ts`) leaving
 * aside where the money sits (direct_collection). A refunded or charged-back
 * order is no longer a sale: its ledger nets to zero.
 */

/** The order is a sale (see above); `extra` narrows it (the organization, the event, a date…). */
export function paidOrder(...extra: (SQL | undefined)[]): SQL {
  return and(
    eq(orders.status, "billed"),
    eq(orders.gift, false),
    sql`exists (select 1 from ${billings} where ${billings.orderId} = ${orders.id} and ${billings.status} = 'approved')`,
    ...extra,
  )!;
}

/** What a sale brings the organization, in centavos: the price after the discount, without our fee. */
export const orderRevenue = sql<number>`(${orders.subtotal} - ${orders.discount})`;

/** Ledger kinds that say what a sale brought (the rest say where the money is: collected directly, withdrawn). */
export const REVENUE_LEDGER_KINDS = ["payment", "service_fee", "refund", "service_fee_refund", "chargeback"] as const;
