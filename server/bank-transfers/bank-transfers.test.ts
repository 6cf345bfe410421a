import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { ANONYMOUS, type Ctx } from "#server/context";
import { getDb } from "#server/db/client";
import { bankAccounts, bankTransferReceipts, billings, ledgerEntries, memberships, orders, paymentRefunds, ticketTypes } from "#server/db/schema";
import { isDomainError } from "#server/errors";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { organizationBalance } from "#server/ledger/ledger";
import { billingAccessToken } from "#server/auth/billing-access";
import { createOrder, expireOrder } from "#server/orders/orders";
import { createBankAccount, deleteBankAccount } from "#server/payouts/bank-accounts";
import { ticketsOfOrder } from "#server/tickets/issue";
import { actorFor, createTestUser, ctxAs, withSecondFactor } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { fakeImage, realImage, realPdf } from "#tests/support/images";
import {
  approveBankTransfer,
  BANK_TRANSFER_MESSAGES,
  getBankTransferPage,
  listBankTransfers,
  readBankTransferReceipt,
  rejectBankTransfer,
  uploadBankTransferReceipt,
} from "./bank-transfers";
import { MAX_RECEIPT_BYTES, RECEIPT_MESSAGES, receiptsDir } from "./receipts";

// Receipts go to a throwaway folder, never .data (env() is read lazily).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-receipts-"));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const PDF = await realPdf();
const PNG = await realImage("png");
const FAKE_PDF = Uint8Array.from(Buffer.from("<html><script>alert(1)</script></html>"));

/** The PDF and then a comment line of filler after its end: still a PDF that opens, exactly `size` bytes. */
function paddedPdf(size: number) {
  const bytes = new Uint8Array(size).fill("x".charCodeAt(0));
  bytes.set(PDF);
  bytes.set(Buffer.from("\n%"), PDF.length);
  return bytes;
}

let n = 0;

async function setup(options: { stock?: number; qty?: number } = {}) {
  n += 1;
  const producer = await createProducer();
  // Money destinations ask for the second factor (decision 144).
  await createBankAccount(await withSecondFactor(producer.ctx), { organizationId: producer.organization.id, cbu: "2850590940090418135201", alias: "feria.vinos", holderName: "Feria Natural SRL", holderCuit: "30-71234567-1" });
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    ticketTypes: [{ name: "Transferencia", price: 1_000_000, stock: options.stock ?? 10, paymentMethod: "BankAccount" }],
  });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const email = `transfiere${n}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const buyerCtx = await ctxAs(ANONYMOUS);
  const buy = (qty = options.qty ?? 2, c: Ctx = buyerCtx) =>
    createOrder(c, {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty }],
      payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "BANK_TRANSFER",
    });
  const { order, billing } = await buy();
  return { db, producer, event, ticket, order, billing, email, buyerCtx, token: billingAccessToken(billing.id), buy };
}

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error("expected a domain error");
}

async function soldOf(ticketTypeId: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  return row.sold;
}

async function memberCtx(organizationId: string, role: "owner" | "admin" | "operator" | "staff") {
  const user = await createTestUser();
  await (await getDb()).insert(memberships).values({ organizationId, userId: user.id, role });
  return ctxAs(actorFor({ ...user, roles: [] }));
}

describe("the buyer's bank-transfer page", () => {
  it("shows the amount, the organizer's account, the order code and the 48-hour deadline to the token's holder only", async () => {
    const { billing, order, token, buyerCtx } = await setup();
    const page = await getBankTransferPage(buyerCtx, billing.id, { token });
    expect(page.status).toBe("pending");
    expect(page.order.total).toBe(2_200_000);
    expect(page.order.code).toBe(order.code);
    expect(page.order.holdExpiresAt!.getTime() - order.createdAt.getTime()).toBe(48 * 3600_000);
    expect(page.account).toMatchObject({ cbu: "2850590940090418135201", alias: "feria.vinos", holderName: "Feria Natural SRL", holderCuit: "30712345671", bankName: "Banco Macro" });
    expect(page.receipt).toBeNull();

    expect((await errorOf(getBankTransferPage(buyerCtx, billing.id))).code).toBe("UNAUTHENTICATED");
    expect((await errorOf(getBankTransferPage(buyerCtx, billing.id, { token: billingAccessToken(order.id) }))).code).toBe("UNAUTHENTICATED");
    const stranger = await createTestUser();
    expect((await errorOf(getBankTransferPage(await ctxAs(actorFor({ ...stranger, roles: [] })), billing.id))).code).toBe("NOT_FOUND");
  });

  it("the organization cannot delete the account a pending transfer is shown; one gone anyway (older data) reads as no account", async () => {
    const { billing, token, buyerCtx, producer, db } = await setup();
    const owner = await withSecondFactor(producer.ctx);
    for (const account of await db.select().from(bankAccounts).where(eq(bankAccounts.organizationId, producer.organization.id))) {
      // Decision 144: buyers about to transfer keep seeing the account they were told.
      expect(await errorOf(deleteBankAccount(owner, { id: account.id }))).toMatchObject({ code: "CONFLICT", reason: "BANK_ACCOUNT_IN_USE" });
      await db.update(bankAccounts).set({ deletedAt: new Date(), forTicketTransfers: false }).where(eq(bankAccounts.id, account.id));
    }
    expect((await getBankTransferPage(buyerCtx, billing.id, { token })).account).toBeNull();
  });
});

describe("receipt upload", () => {
  it("refuses a fake PDF (wrong first bytes), an empty file and one over 5 MB, and stores nothing", async () => {
    const { billing, token, buyerCtx, db } = await setup();
    const upload = (bytes: Uint8Array | null, fileName = "comprobante.pdf") => uploadBankTransferReceipt(buyerCtx, { billingId: billing.id, token, bytes, fileName });
    expect((await errorOf(upload(FAKE_PDF))).fieldErrors.receipt).toEqual([RECEIPT_MESSAGES.type]);
    expect((await errorOf(upload(null))).fieldErrors.receipt).toEqual([RECEIPT_MESSAGES.required]);
    expect((await errorOf(upload(paddedPdf(MAX_RECEIPT_BYTES + 1)))).fieldErrors.receipt).toEqual([RECEIPT_MESSAGES.size]);
    expect(await db.select().from(bankTransferReceipts).where(eq(bankTransferReceipts.billingId, billing.id))).toHaveLength(0);
    // Exactly 5 MB is fine.
    expect((await upload(paddedPdf(MAX_RECEIPT_BYTES))).size).toBe(MAX_RECEIPT_BYTES);
  });

  it("refuses a file that only starts like a PDF or an image (cut, damaged or made up) and stores nothing", async () => {
    const { billing, token, buyerCtx, db } = await setup();
    const upload = (bytes: Uint8Array, fileName: string) => uploadBankTransferReceipt(buyerCtx, { billingId: billing.id, token, bytes, fileName });
    const jpeg = await realImage("jpeg");
    const notReceipts: [Uint8Array, string][] = [
      [Uint8Array.from(Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")), "sin-paginas.pdf"],
      [Uint8Array.from(Buffer.from(`%PDF-1.7\n${"basura ".repeat(200)}`)), "inventado.pdf"],
      [PNG.slice(0, PNG.length - 20), "cortada.png"],
      [fakeImage("png"), "ruido.png"],
      [jpeg.slice(0, jpeg.length / 2), "cortada.jpg"],
    ];
    for (const [bytes, name] of notReceipts) {
      expect((await errorOf(upload(bytes, name))).fieldErrors.receipt, name).toEqual([RECEIPT_MESSAGES.unreadable]);
    }
    expect(await db.select().from(bankTransferReceipts).where(eq(bankTransferReceipts.billingId, billing.id))).toHaveLength(0);
    // A whole image too big to open gets its own message, not "dañado".
    const huge = await sharp({ create: { width: 8000, height: 7000, channels: 3, background: "#ffffff" } }).png({ compressionLevel: 9 }).toBuffer();
    expect(huge.length).toBeLessThan(MAX_RECEIPT_BYTES);
    expect((await errorOf(upload(huge, "foto-108mp.png"))).fieldErrors.receipt).toEqual([RECEIPT_MESSAGES.pixels]);
    // The same files whole are receipts.
    for (const [bytes, name] of [[PDF, "transferencia.pdf"], [PNG, "captura.png"], [jpeg, "foto.jpg"]] as const) expect((await upload(bytes, name)).size).toBe(bytes.length);
  });

  it("stores a PDF outside public/ under a random name, lets the buyer replace it, and only the buyer and the organization read it", async () => {
    const { billing, token, buyerCtx, producer, db } = await setup();
    const first = await uploadBankTransferReceipt(buyerCtx, { billingId: billing.id, token, bytes: PDF, fileName: "Comprobante Galicia ñandú.pdf" });
    expect(first).toMatchObject({ contentType: "application/pdf", size: PDF.length, originalName: "Comprobante-Galicia-nandu.pdf", replacedAt: null });
    expect(first.file).toMatch(/^[a-f0-9]{32}\.pdf$/);
    expect(fs.readFileSync(path.join(receiptsDir(), first.file))).toEqual(Buffer.from(PDF));
    expect(receiptsDir().startsWith(dataDir)).toBe(true);

    const second = await uploadBankTransferReceipt(buyerCtx, { billingId: billing.id, token, bytes: PNG, fileName: "captura.png" });
    const page = await getBankTransferPage(buyerCtx, billing.id, { token });
    expect(page.receipt?.id).toBe(second.id);
    const rows = await db.select().from(bankTransferReceipts).where(eq(bankTransferReceipts.billingId, billing.id));
    expect(rows.find((r) => r.id === first.id)?.replacedAt).not.toBeNull();

    expect(await readBankTransferReceipt(buyerCtx, second.id, { token })).toMatchObject({ contentType: "image/png", fileName: "captura.png" });
    expect((await readBankTransferReceipt(producer.ctx, second.id)).bytes).toEqual(Buffer.from(PNG));
    const operator = await memberCtx(producer.organization.id, "operator");
    expect((await readBankTransferReceipt(operator, first.id)).contentType).toBe("application/pdf");

    const stranger = await createTestUser();
    expect((await errorOf(readBankTransferReceipt(await ctxAs(actorFor({ ...stranger, roles: [] })), second.id))).code).toBe("NOT_FOUND");
    const otherProducer = await createProducer();
    expect((await errorOf(readBankTransferReceipt(otherProducer.ctx, second.id))).code).toBe("NOT_FOUND");
    const staff = await memberCtx(producer.organization.id, "staff");
    expect((await errorOf(readBankTransferReceipt(staff, second.id))).code).toBe("NOT_FOUND");
    expect((await errorOf(readBankTransferReceipt(await ctxAs(), second.id))).code).toBe("UNAUTHENTICATED");
    // Another billing's token does not open it.
    const other = await setup();
    expect((await errorOf(readBankTransferReceipt(await ctxAs(), second.id, { token: other.token }))).code).toBe("UNAUTHENTICATED");
  });

  it("is refused once the transfer is approved, rejected or the hold is over", async () => {
    const { billing, token, buyerCtx, producer } = await setup();
    await approveBankTransfer(producer.ctx, { billingId: billing.id });
    expect((await errorOf(uploadBankTransferReceipt(buyerCtx, { billingId: billing.id, token, bytes: PDF }))).message).toBe(BANK_TRANSFER_MESSAGES.notPending);

    const late = await setup();
    const after = await ctxAs(ANONYMOUS, new Date(late.order.holdExpiresAt!.getTime() + 1000));
    expect((await errorOf(uploadBankTransferReceipt(after, { billingId: late.billing.id, token: late.token, bytes: PDF }))).message).toBe(BANK_TRANSFER_MESSAGES.holdOver);
  });
});

describe("organizer review", () => {
  it("lists pending transfers with their receipt for sales:read members; others are refused", async () => {
    const { billing, token, buyerCtx, producer, order, event, ticket } = await setup();
    const receipt = await uploadBankTransferReceipt(buyerCtx, { billingId: billing.id, token, bytes: PDF, fileName: "c.pdf" });
    const operator = await memberCtx(producer.organization.id, "operator");
    const list = await listBankTransfers(operator, { organizationId: producer.organization.id });
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      billingId: billing.id,
      orderCode: order.code,
      amount: 2_200_000,
      status: "pending",
      buyer: { name: "Ana Gómez" },
      event: { id: event.id },
      receipt: { id: receipt.id, contentType: "application/pdf" },
      items: [{ name: "Transferencia", qty: 2 }],
    });
    expect((await listBankTransfers(producer.ctx, { organizationId: producer.organization.id, status: "approved" })).total).toBe(0);
    expect((await listBankTransfers(producer.ctx, { organizationId: producer.organization.id, eventId: "00000000-0000-4000-8000-000000000000" })).total).toBe(0);

    const stranger = await createProducer();
    expect((await errorOf(listBankTransfers(stranger.ctx, { organizationId: producer.organization.id }))).code).toBe("FORBIDDEN");
    expect((await errorOf(approveBankTransfer(stranger.ctx, { billingId: billing.id }))).code).toBe("FORBIDDEN");
    expect((await errorOf(rejectBankTransfer(stranger.ctx, { billingId: billing.id }))).code).toBe("FORBIDDEN");
    // Operators see, but deciding on money is for owners and admins.
    expect((await errorOf(approveBankTransfer(operator, { billingId: billing.id }))).code).toBe("FORBIDDEN");
    expect((await errorOf(rejectBankTransfer(operator, { billingId: billing.id }))).code).toBe("FORBIDDEN");
    expect((await errorOf(approveBankTransfer(buyerCtx, { billingId: billing.id }))).code).toBe("UNAUTHENTICATED");
    // Looking and refused attempts change nothing.
    expect(await soldOf(ticket.id)).toBe(2);
  });

  it("approve issues the tickets once, books the payment and is idempotent", async () => {
    const { billing, producer, order, db, ticket, buyerCtx, token } = await setup();
    const admin = await memberCtx(producer.organization.id, "admin");
    const first = await approveBankTransfer(admin, { billingId: billing.id });
    expect(first.outcome).toBe("approved");
    expect(first.transfer.status).toBe("approved");
    const again = await approveBankTransfer(producer.ctx, { billingId: billing.id });
    expect(again.outcome).toBe("already-approved");

    expect(await ticketsOfOrder(db, order.id)).toHaveLength(2);
    const [o] = await db.select().from(orders).where(eq(orders.id, order.id));
    const [b] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect(o.status).toBe("billed");
    expect(b).toMatchObject({ status: "approved", providerReference: `transfer-${billing.id}` });
    expect(await soldOf(ticket.id)).toBe(2);
    await assertLedgerMatches(db, order.id);
    const payments = await db.select().from(ledgerEntries).where(eq(ledgerEntries.billingId, billing.id));
    expect(payments.filter((e) => e.kind === "payment")).toHaveLength(1);
    // The buyer paid into the organizer's own account: nothing for us to pay out; they owe us the fee.
    expect(await organizationBalance(db, producer.organization.id)).toBe(-order.serviceFee);
    expect((await getBankTransferPage(buyerCtx, billing.id, { token })).status).toBe("approved");
    expect((await errorOf(rejectBankTransfer(producer.ctx, { billingId: billing.id }))).message).toBe(BANK_TRANSFER_MESSAGES.cannotRejectApproved);
  });

  it("reject cancels the order, returns the stock exactly once and emails the buyer the reason", async () => {
    const { billing, producer, order, db, ticket, email, buyerCtx, token } = await setup();
    expect(await soldOf(ticket.id)).toBe(2);
    const result = await rejectBankTransfer(producer.ctx, { billingId: billing.id, reason: "No llegó la transferencia" });
    expect(result.outcome).toBe("rejected");
    expect(result.transfer).toMatchObject({ status: "rejected", review: { decision: "rejected", reason: "No llegó la transferencia" } });
    expect(await soldOf(ticket.id)).toBe(0);
    expect((await rejectBankTransfer(producer.ctx, { billingId: billing.id })).outcome).toBe("already-rejected");
    expect(await soldOf(ticket.id)).toBe(0);
    // The hold's job finds nothing to do later.
    expect(await expireOrder(await ctxAs(ANONYMOUS, new Date(Date.now() + 49 * 3600_000)), order.id)).toBe("skipped");
    expect(await soldOf(ticket.id)).toBe(0);

    const [o] = await db.select().from(orders).where(eq(orders.id, order.id));
    const [b] = await db.select().from(billings).where(eq(billings.id, billing.id));
    expect([o.status, b.status]).toEqual(["closed", "cancelled"]);
    const mails = await emailsTo(email, "bank-transfer-rejected");
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain("No llegó la transferencia");
    expect(mails[0].text).toContain(order.code);

    const page = await getBankTransferPage(buyerCtx, billing.id, { token });
    expect(page.status).toBe("rejected");
    expect(page.review?.reason).toBe("No llegó la transferencia");
    expect((await errorOf(approveBankTransfer(producer.ctx, { billingId: billing.id }))).message).toBe(BANK_TRANSFER_MESSAGES.cannotApproveRejected);
    expect(await ticketsOfOrder(db, order.id)).toHaveLength(0);
  });

  it("a late approval with no stock left books the transfer in and out of the organizer's account, with no provider refund", async () => {
    const { billing, producer, order, db, ticket } = await setup({ stock: 2, qty: 2 });
    const later = new Date(order.holdExpiresAt!.getTime() + 60_000);
    expect(await expireOrder(await ctxAs(ANONYMOUS, later), order.id)).toBe("expired");
    await db.update(ticketTypes).set({ sold: 2 }).where(eq(ticketTypes.id, ticket.id));
    const { outcome } = await approveBankTransfer({ ...producer.ctx, now: later }, { billingId: billing.id });
    expect(outcome).toBe("orphan-refunded");
    expect(await ticketsOfOrder(db, order.id)).toHaveLength(0);
    // The organizer gives it back from their account: no provider call is queued.
    expect(await db.select().from(paymentRefunds).where(eq(paymentRefunds.billingId, billing.id))).toEqual([]);
    expect(await organizationBalance(db, producer.organization.id)).toBe(0);
    await assertLedgerMatches(db, order.id);
  });

  it("a late approval after the hold expired follows the orphan rules", async () => {
    const { billing, producer, order, db, ticket } = await setup({ stock: 2, qty: 2 });
    const later = new Date(order.holdExpiresAt!.getTime() + 60_000);
    expect(await expireOrder(await ctxAs(ANONYMOUS, later), order.id)).toBe("expired");
    expect(await soldOf(ticket.id)).toBe(0);
    const organizer = { ...producer.ctx, now: later };
    expect((await errorOf(rejectBankTransfer(organizer, { billingId: billing.id }))).message).toBe(BANK_TRANSFER_MESSAGES.cannotRejectExpired);
    const { outcome } = await approveBankTransfer(organizer, { billingId: billing.id });
    expect(outcome).toBe("orphan-honoured");
    expect(await ticketsOfOrder(db, order.id)).toHaveLength(2);
    expect(await soldOf(ticket.id)).toBe(2);
    await assertLedgerMatches(db, order.id);
  });
});

describe.runIf(hasPostgresServer)("bank transfer decisions under concurrency", () => {
  it("five simultaneous approvals issue one set of tickets and book one payment", async () => {
    const { billing, producer, order, db, ticket } = await setup();
    const results = await Promise.all(Array.from({ length: 5 }, () => approveBankTransfer(producer.ctx, { billingId: billing.id })));
    expect(results.filter((r) => r.outcome === "approved")).toHaveLength(1);
    expect(results.filter((r) => r.outcome === "already-approved")).toHaveLength(4);
    expect(await ticketsOfOrder(db, order.id)).toHaveLength(2);
    expect((await db.select().from(ledgerEntries).where(eq(ledgerEntries.billingId, billing.id))).filter((e) => e.kind === "payment")).toHaveLength(1);
    expect(await soldOf(ticket.id)).toBe(2);
    await assertLedgerMatches(db, order.id);
  });

  it("simultaneous rejections return the stock once; approve and reject at once leave one consistent outcome", async () => {
    const { billing, producer, ticket, email } = await setup();
    const rejects = await Promise.all(Array.from({ length: 5 }, () => rejectBankTransfer(producer.ctx, { billingId: billing.id })));
    expect(rejects.filter((r) => r.outcome === "rejected")).toHaveLength(1);
    expect(await soldOf(ticket.id)).toBe(0);
    expect(await emailsTo(email, "bank-transfer-rejected")).toHaveLength(1);

    const race = await setup();
    const settled = await Promise.allSettled([
      approveBankTransfer(race.producer.ctx, { billingId: race.billing.id }),
      rejectBankTransfer(race.producer.ctx, { billingId: race.billing.id }),
    ]);
    const won = settled.filter((s) => s.status === "fulfilled");
    expect(won).toHaveLength(1);
    const tickets = await ticketsOfOrder(race.db, race.order.id);
    if (settled[0].status === "fulfilled") {
      expect(tickets).toHaveLength(2);
      expect(await soldOf(race.ticket.id)).toBe(2);
    } else {
      expect(tickets).toHaveLength(0);
      expect(await soldOf(race.ticket.id)).toBe(0);
    }
    await assertLedgerMatches(race.db, race.order.id);
  });
});
