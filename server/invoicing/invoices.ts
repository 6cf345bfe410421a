import { randomUUID } from "node:crypto";
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Db, DbOrTx } from "#server/db/client";
import { billingTaxDetails, invoices, invoiceSequences, type BillingRow, type InvoiceRow, type OrderRow } from "#server/db/schema";
import { enqueue } from "#server/jobs/queue";
import { log } from "#server/monitoring/log";
import { arcaConfig, type ArcaConfig } from "./config";
import { SEND_INVOICE_EMAIL_JOB } from "./emails";
import { amountsFor, letterFor, receiverFor, VOUCHER_TYPE } from "./rules";
import { accessTicket, forgetAccessTicket, type AccessTicket } from "./wsaa";
import { consultVoucher, lastAuthorised, requestCae, WsfeTransientError } from "./wsfe";

/*
 * Invoices and credit notes of our service charge (docs/invoicing.md, decisions 211–213). The order's
 * lifecycle asks for them in its own transaction (onPaid, onRefunded): a row and a job, so they exist only if
 * the payment or refund commits. The job numbers and sends under the lease of its point of sale and voucher
 * type: one sender at a time per sequence, each number = ARCA's last authorised + 1, and a voucher whose
 * answer never came (a timeout, a crash) is asked about (FECompConsultar) before anything else is sent.
 */

export const ISSUE_INVOICE_JOB = "issue-invoice";
const TZ = "America/Argentina/Buenos_Aires";
/** How long a lease lasts without being released (a crashed sender): longer than a few ARCA calls with their timeout. */
export const LEASE_MS = 3 * 60_000;
/** How long a job waits for another sender's lease before giving the attempt back to the queue. */
const LEASE_WAIT_MS = 60_000;

/** ARCA's CbteFch: the day in Buenos Aires, yyyymmdd. */
export function voucherDateOf(now: Date): string {
  return DateTime.fromJSDate(now).setZone(TZ).toFormat("yyyyLLdd");
}

/**
 * onPaid: the invoice of our service charge on this billing, and its job. Nothing when invoicing is off, the
 * order is a gift or carries no service charge. Idempotent per billing.
 */
export async function requestInvoice(tx: DbOrTx, order: OrderRow, billing: BillingRow, now: Date, config: ArcaConfig | null = arcaConfig()) {
  if (!config || order.gift || order.serviceFee <= 0) return null;
  const [details] = await tx.select().from(billingTaxDetails).where(eq(billingTaxDetails.billingId, billing.id));
  const receiver = receiverFor(details ?? null, order.payer);
  const letter = letterFor(config.ivaCondition, receiver);
  const [row] = await tx
    .insert(invoices)
    .values({
      kind: "invoice",
      orderId: order.id,
      billingId: billing.id,
      environment: config.environment,
      issuerCuit: config.cuit,
      pointOfSale: config.pointOfSale,
      letter,
      voucherType: VOUCHER_TYPE[letter].invoice,
      ...amountsFor(letter, order.serviceFee),
      receiverDocType: receiver.docType,
      receiverDocNumber: receiver.docNumber,
      receiverIvaCondition: receiver.ivaCondition,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (row) await enqueue(tx, ISSUE_INVOICE_JOB, { invoiceId: row.id }, now);
  return row ?? null;
}

/**
 * onRefunded: the credit note cancelling the billing's invoice (same letter, receiver and amounts, CbtesAsoc
 * pointing to it), and its job. Nothing when the billing has no invoice. Idempotent per billing.
 */
export async function requestCreditNote(tx: DbOrTx, billing: BillingRow, now: Date) {
  const [invoice] = await tx.select().from(invoices).where(and(eq(invoices.billingId, billing.id), eq(invoices.kind, "invoice")));
  if (!invoice) return null;
  const [row] = await tx
    .insert(invoices)
    .values({
      kind: "credit_note",
      orderId: invoice.orderId,
      billingId: billing.id,
      invoiceId: invoice.id,
      environment: invoice.environment,
      issuerCuit: invoice.issuerCuit,
      pointOfSale: invoice.pointOfSale,
      letter: invoice.letter,
      voucherType: VOUCHER_TYPE[invoice.letter].credit_note,
      total: invoice.total,
      net: invoice.net,
      vat: invoice.vat,
      receiverDocType: invoice.receiverDocType,
      receiverDocNumber: invoice.receiverDocNumber,
      receiverIvaCondition: invoice.receiverIvaCondition,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (row) await enqueue(tx, ISSUE_INVOICE_JOB, { invoiceId: row.id }, now);
  return row ?? null;
}

type SequenceKey = Pick<InvoiceRow, "environment" | "issuerCuit" | "pointOfSale" | "voucherType">;

function sequenceWhere(key: SequenceKey) {
  return and(
    eq(invoiceSequences.environment, key.environment),
    eq(invoiceSequences.issuerCuit, key.issuerCuit),
    eq(invoiceSequences.pointOfSale, key.pointOfSale),
    eq(invoiceSequences.voucherType, key.voucherType),
  );
}

/**
 * Runs `work` holding the sequence's lease (decision 212): a conditional UPDATE on the sequence's row that
 * only one process wins until it releases it or LEASE_MS pass (the database's clock decides). Others poll
 * for up to LEASE_WAIT_MS and then give the attempt back to the queue.
 */
async function withSequenceLease<T>(db: Db, key: SequenceKey, work: () => Promise<T>): Promise<T> {
  await db.insert(invoiceSequences).values(key).onConflictDoNothing();
  const holder = randomUUID();
  const deadline = Date.now() + LEASE_WAIT_MS;
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    const [won] = await db
      .update(invoiceSequences)
      .set({ holder, heldUntil: sql`now() + ${`${LEASE_MS} milliseconds`}::interval` })
      .where(and(sequenceWhere(key), or(isNull(invoiceSequences.heldUntil), lt(invoiceSequences.heldUntil, sql`now()`))))
      .returning({ holder: invoiceSequences.holder });
    if (won) break;
    if (Date.now() > deadline) throw new Error(`Otro proceso está emitiendo en el punto de venta ${key.pointOfSale} (tipo ${key.voucherType}); se reintenta`);
    await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * wait));
  }
  try {
    return await work();
  } finally {
    await db.update(invoiceSequences).set({ holder: null, heldUntil: null }).where(and(sequenceWhere(key), eq(invoiceSequences.holder, holder)));
  }
}

async function update(db: Db, id: string, values: Partial<typeof invoices.$inferInsert>) {
  const [row] = await db.update(invoices).set({ ...values, updatedAt: new Date() }).where(eq(invoices.id, id)).returning();
  return row;
}

/**
 * The voucher has its CAE: recorded with its email's job in one transaction (decision 219), so the buyer gets
 * the PDF exactly once — the job is queued only by the update that authorises, and retries find it done.
 */
async function authorise(db: Db, id: string, values: Partial<typeof invoices.$inferInsert>, now: Date) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(invoices)
      .set({ ...values, status: "authorised", updatedAt: new Date() })
      .where(and(eq(invoices.id, id), sql`${invoices.status} <> 'authorised'`))
      .returning({ id: invoices.id });
    if (row) await enqueue(tx, SEND_INVOICE_EMAIL_JOB, { invoiceId: id }, now);
  });
}

export type IssueOutcome = "authorised" | "rejected" | "already-done";

/**
 * The job: gets ARCA's CAE for one invoice or credit note. Throws to be retried when ARCA is down, slow or
 * says something that is no verdict (the queue backs off); a rejection is final, with ARCA's codes and
 * observations kept. A credit note waits for its invoice's CAE; an invoice ARCA rejected gets no credit note.
 */
export async function issueVoucher(db: Db, invoiceId: string, now: Date, config: ArcaConfig | null = arcaConfig()): Promise<IssueOutcome> {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) throw new Error(`No existe el comprobante ${invoiceId}`);
  if (invoice.status === "authorised" || invoice.status === "rejected") return "already-done";
  if (!config) throw new Error("La facturación con ARCA no está configurada (ARCA_*): el comprobante espera");
  if (config.environment !== invoice.environment || config.cuit !== invoice.issuerCuit) {
    throw new Error(`El comprobante es de ${invoice.environment} y CUIT ${invoice.issuerCuit}; la configuración actual no`);
  }
  let associated: InvoiceRow | undefined;
  if (invoice.kind === "credit_note") {
    [associated] = await db.select().from(invoices).where(eq(invoices.id, invoice.invoiceId ?? ""));
    if (associated?.status === "rejected" || !associated) {
      const message = "La factura que esta nota de crédito anularía no fue autorizada por ARCA: no hay nada que anular.";
      await update(db, invoice.id, { status: "rejected", errors: [{ code: 0, message }], lastError: null });
      return "rejected";
    }
    if (associated.status !== "authorised") {
      const message = "La factura asociada todavía no tiene CAE: la nota de crédito espera";
      await update(db, invoice.id, { lastError: message });
      throw new Error(message);
    }
  }

  return withSequenceLease(db, invoice, async () => {
    let ticket: AccessTicket;
    try {
      ticket = await accessTicket(db, config, now);
    } catch (error) {
      await update(db, invoice.id, { lastError: `WSAA: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2000) });
      throw error;
    }
    // First, vouchers of this sequence whose answer never came (ours included), in number order.
    const unsettled = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.status, "sending"), eq(invoices.environment, invoice.environment), eq(invoices.issuerCuit, invoice.issuerCuit), eq(invoices.pointOfSale, invoice.pointOfSale), eq(invoices.voucherType, invoice.voucherType)))
      .orderBy(asc(invoices.number));
    let outcome: IssueOutcome | null = null;
    for (const other of unsettled) {
      const settled = await send(db, config, ticket, other, now);
      if (other.id === invoice.id) outcome = settled;
    }
    if (outcome) return outcome;
    const [current] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
    if (current.status === "authorised" || current.status === "rejected") return "already-done";
    return send(db, config, ticket, current, now, associated);
  });
}

/**
 * Under the lease: a voucher already sent is first looked up at ARCA by its number (found: it was
 * authorised, recorded now, never sent again); then it is numbered ARCA's last + 1, marked `sending` (before
 * the request, so a crash or timeout leaves the number to ask about) and sent.
 */
async function send(db: Db, config: ArcaConfig, ticket: AccessTicket, invoice: InvoiceRow, now: Date, associatedRow?: InvoiceRow): Promise<IssueOutcome> {
  try {
    if (invoice.status === "sending" && invoice.number) {
      const found = await consultVoucher(config, ticket, invoice.pointOfSale, invoice.voucherType, invoice.number);
      if (found) {
        if (found.total !== invoice.total || found.docNumber !== invoice.receiverDocNumber) {
          throw new Error(`ARCA tiene el comprobante ${invoice.number} con otro importe o receptor: revisalo antes de seguir`);
        }
        await authorise(db, invoice.id, { cae: found.cae, caeDueDate: found.caeDueDate, voucherDate: found.date, observations: found.observations, errors: [], lastError: null, authorisedAt: now }, now);
        log().info({ invoice: invoice.id, number: invoice.number }, "ARCA ya había autorizado el comprobante");
        return "authorised";
      }
    }
    let associated = associatedRow;
    if (invoice.kind === "credit_note" && !associated) [associated] = await db.select().from(invoices).where(eq(invoices.id, invoice.invoiceId ?? ""));
    if (invoice.kind === "credit_note" && (associated?.status !== "authorised" || !associated.number || !associated.voucherDate)) {
      throw new Error("La factura asociada todavía no tiene CAE: la nota de crédito espera");
    }
    const number = (await lastAuthorised(config, ticket, invoice.pointOfSale, invoice.voucherType)) + 1;
    const date = voucherDateOf(now);
    await update(db, invoice.id, { status: "sending", number, voucherDate: date, sentAt: now, attempts: invoice.attempts + 1, lastError: null });
    const result = await requestCae(config, ticket, {
      pointOfSale: invoice.pointOfSale,
      voucherType: invoice.voucherType,
      number,
      date,
      concept: 2,
      docType: invoice.receiverDocType,
      docNumber: invoice.receiverDocNumber,
      receiverIvaCondition: invoice.receiverIvaCondition,
      total: invoice.total,
      net: invoice.net,
      vat: invoice.vat,
      associated:
        invoice.kind === "credit_note" && associated?.number && associated.voucherDate
          ? { voucherType: associated.voucherType, pointOfSale: associated.pointOfSale, number: associated.number, cuit: associated.issuerCuit, date: associated.voucherDate }
          : undefined,
    });
    if (result.result === "A" && result.cae) {
      await authorise(db, invoice.id, { cae: result.cae, caeDueDate: result.caeDueDate, observations: result.observations, errors: result.errors, authorisedAt: now }, now);
      return "authorised";
    }
    // Rejected: the number was not used (ARCA numbers only what it authorises).
    await update(db, invoice.id, { status: "rejected", number: null, errors: result.errors, observations: result.observations });
    return "rejected";
  } catch (error) {
    // A voucher marked `sending` stays so, with its number, even when ARCA answered an error: the next attempt
    // asks ARCA about that number before numbering again, so nothing is ever authorised twice.
    await update(db, invoice.id, { lastError: (error instanceof Error ? error.message : String(error)).slice(0, 2000) });
    // 600 (ValidacionDeToken): ARCA no longer takes our ticket; the next attempt asks WSAA for a new one.
    if (error instanceof WsfeTransientError && error.errors.some((e) => e.code === 600)) await forgetAccessTicket(db, config);
    throw error;
  }
}
