import { and, eq } from "drizzle-orm";
import type { Ctx } from "#server/context";
import { invoices } from "#server/db/schema";
import { Conflict, NotFound } from "#server/errors";
import { enqueue } from "#server/jobs/queue";
import { log } from "#server/monitoring/log";
import { requirePlatformAdmin } from "#server/organizations/permissions";
import { ISSUE_INVOICE_JOB } from "./invoices";
import { RETRY_MESSAGES } from "#common/invoicing";

/*
 * Sending a rejected invoice or credit note to ARCA again, by hand, from /admin/facturas (docs/invoicing.md,
 * decision 218): after the cause was fixed outside (the point of sale enabled, the buyer's CUIT registered at
 * ARCA, a bug in what we sent). It goes back the way every voucher goes: `pending` plus an `issue-invoice` job.
 */


/**
 * Re-queues a rejected voucher: back to `pending` with ARCA's previous answer kept in `last_error` (its codes
 * are cleared so the list shows the new answer), and a job, in one transaction. Only the platform's `admin`;
 * anything but a rejected voucher is CONFLICT (two admins pressing at once: one wins, the other is told).
 */
export async function retryRejectedInvoice(ctx: Ctx, invoiceId: string) {
  requirePlatformAdmin(ctx, RETRY_MESSAGES.onlyPlatform);
  if (!/^[0-9a-f-]{36}$/i.test(invoiceId)) throw new NotFound(RETRY_MESSAGES.notFound);
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
    if (!current) throw new NotFound(RETRY_MESSAGES.notFound);
    const before = [...current.errors, ...current.observations].map((m) => `${m.code}: ${m.message}`).join(" · ");
    const [row] = await tx
      .update(invoices)
      .set({
        status: "pending",
        number: null,
        errors: [],
        observations: [],
        lastError: before ? `Rechazo anterior: ${before}`.slice(0, 2000) : null,
        updatedAt: ctx.now,
      })
      .where(and(eq(invoices.id, invoiceId), eq(invoices.status, "rejected")))
      .returning();
    if (!row) throw new Conflict(RETRY_MESSAGES.notRejected);
    await enqueue(tx, ISSUE_INVOICE_JOB, { invoiceId: row.id }, ctx.now);
    log().info(
      {
        invoice: row.id,
        by: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      },
      "Comprobante rechazado reencolado a mano"
    );
    return row;
  });
}
