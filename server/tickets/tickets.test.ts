import type { OrderRow } from "#server/db/schema";
import { eq, sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { billings, emailAttachments, emailLog, jobs, ticketTypes } from "#server/db/schema";
import { jobHandlers } from "#server/worker/handlers";
import { runDueJobs } from "#server/jobs/queue";
import { billingAccessToken } from "#server/auth/billing-access";
import { createOrder } from "#server/orders/orders";
import { SandboxProvider } from "#server/payments/sandbox-provider";
import { buildSignedNotification, payInSandbox } from "#server/payment-notifications/sandbox";
import { handleMercadoPagoNotification } from "#server/payment-notifications/webhook";
import { hasPostgresServer } from "#tests/support/db";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent, daysFromNow } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { sendTicketsEmail } from "./email";
import { TEST_MODE_NOTICE } from "#server/email/templates";
import { holdersFor, SEND_TICKETS_EMAIL_JOB } from "./issue";
import { qrPayloadFor, qrSvg, verifyQrPayload } from "./qr";
import { getPurchaseTickets } from "#server/orders/purchase-tickets";
import { listMyTickets } from "./tickets";

let n = 0;
function payer(email?: string) {
  n += 1;
  return {
    firstName: "Sofía",
    lastName: "Peña",
    email: email ?? `sofia.tickets${n}-${Math.random().toString(36).slice(2, 6)}@example.com`,
    documentType: "dni",
    documentNumber: "30123456",
    phoneNumber: "+54 11 5555-1234",
  };
}

async function setup(options: { days?: number; name?: string; price?: number } = {}) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, {
    days: options.days,
    name: options.name,
    ticketTypes: [
      { name: "General", price: options.price ?? 1_000_000, stock: 100 },
      { name: "VIP", price: options.price ?? 2_000_000, stock: 10 },
    ],
  });
  const db = await getDb();
  const types = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const byName = Object.fromEntries(types.map((t) => [t.name, t]));
  return { db, producer, event, general: byName.General, vip: byName.VIP };
}

/** Buys (anonymous unless ctx given) two General and one VIP and pays in the sandbox. */
async function buyAndPay(s: Awaited<ReturnType<typeof setup>>, options: { email?: string; userId?: string; userEmail?: string } = {}) {
  const ctx = options.userId ? await ctxAs(actorFor({ id: options.userId, email: options.userEmail!, roles: [] })) : await ctxAs(ANONYMOUS);
  const { order, billing } = await createOrder(ctx, {
    eventSlug: s.event.slug,
    items: [
      { ticketId: s.general.id, qty: 2 },
      { ticketId: s.vip.id, qty: 1 },
    ],
    payer: payer(options.email),
    paymentMethod: "MERCADO_PAGO",
  });
  const paid = await payInSandbox(s.db, billing.id, "approved");
  expect(paid?.result.outcome).toBe("approved");
  return { order, billing };
}

describe("signed QR payload", () => {
  it("carries the code with a signature that verifies, and refuses anything tampered with", async () => {
    const payload = qrPayloadFor("AbCdEfGhIjKlMnOpQrStUv");
    expect(payload).toMatch(/^TRB1\.AbCdEfGhIjKlMnOpQrStUv\.[A-Za-z0-9_-]{22}$/);
    expect(verifyQrPayload(payload)).toBe("AbCdEfGhIjKlMnOpQrStUv");
    expect(verifyQrPayload(` ${payload}\n`)).toBe("AbCdEfGhIjKlMnOpQrStUv");

    const [prefix, code, sig] = payload.split(".");
    const flipped = sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A");
    expect(verifyQrPayload(`${prefix}.${code}.${flipped}`)).toBeNull();
    // Another code with this code's signature.
    expect(verifyQrPayload(`${prefix}.${code.replace("A", "Z")}.${sig}`)).toBeNull();
    expect(verifyQrPayload(`TRB2.${code}.${sig}`)).toBeNull();
    expect(verifyQrPayload(code)).toBeNull();
    expect(verifyQrPayload(`${payload}.extra`)).toBeNull();
    expect(verifyQrPayload("")).toBeNull();
    expect(verifyQrPayload(null)).toBeNull();
  });

  it("renders an SVG with a white background that scales with its box", async () => {
    const svg = await qrSvg(qrPayloadFor("AbCdEfGhIjKlMnOpQrStUv"));
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/);
    expect(svg).not.toMatch(/<svg[^>]*\swidth=/);
    expect(svg).toContain('fill="#ffffff"');
  });
});

describe("holders", () => {
  const order = { payer: payer("payer@example.com") } as OrderRow;
  it("are the payer when the order has no attendees", () => {
    expect(holdersFor(order, [{ ticketTypeId: "a" }, { ticketTypeId: "b" }])).toEqual([
      { name: "Sofía Peña", email: "payer@example.com", documentType: null, documentNumber: null },
      { name: "Sofía Peña", email: "payer@example.com", documentType: null, documentNumber: null },
    ]);
  });
  it("are the attendee of each unit, matched by ticket type, with the payer's email when they gave none", () => {
    const withAttendees = {
      ...order,
      attendees: [
        { ticketTypeId: "vip", firstName: "Ana", lastName: "Gómez", documentType: "dni", documentNumber: "1", email: "ana@example.com" },
        { ticketTypeId: "gen", firstName: "Juan", lastName: "Pérez", documentType: "dni", documentNumber: "2" },
      ],
    } as unknown as OrderRow;
    expect(holdersFor(withAttendees, [{ ticketTypeId: "gen" }, { ticketTypeId: "vip" }, { ticketTypeId: "gen" }])).toEqual([
      { name: "Juan Pérez", email: "payer@example.com", documentType: "dni", documentNumber: "2" },
      { name: "Ana Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "1" },
      { name: "Sofía Peña", email: "payer@example.com", documentType: null, documentNumber: null },
    ]);
  });
});

describe("tickets email", () => {
  it("is queued once when the payment is approved, and sends one email with the QR inline and a PDF page per ticket", async () => {
    const s = await setup({ name: "Fiesta Bresh" });
    const buyerEmail = `compra-${Date.now()}@example.com`;
    const { order, billing } = await buyAndPay(s, { email: buyerEmail });
    // The same notification again changes nothing and queues nothing more.
    await payInSandbox(s.db, billing.id, "approved");

    const queued = await s.db.select().from(jobs).where(sql`${jobs.kind} = ${SEND_TICKETS_EMAIL_JOB} and ${jobs.payload}->>'orderId' = ${order.id}`);
    expect(queued).toHaveLength(1);
    expect(await emailsTo(buyerEmail)).toHaveLength(0);

    const run = await runDueJobs(s.db, jobHandlers, new Date(Date.now() + 1000), 100);
    expect(run.failed).toBe(0);
    // Running the queue again (or the job twice) sends nothing more.
    await runDueJobs(s.db, jobHandlers, new Date(Date.now() + 3600_000), 100);
    expect(await sendTicketsEmail(s.db, order.id)).toBe("already-sent");

    const sent = await emailsTo(buyerEmail);
    expect(sent).toHaveLength(1);
    const [email] = sent;
    expect(email.kind).toBe("tickets");
    expect(email.subject).toBe(`Tus entradas para Fiesta Bresh · ${order.code}`);
    // Tests run on simulated payments: the email says so first thing, in both versions.
    expect(email.text.startsWith(TEST_MODE_NOTICE)).toBe(true);
    expect(email.html).toContain(TEST_MODE_NOTICE);
    expect(email.text).toContain(`Compra ${order.code}`);
    expect(email.text).toContain("Entrada 3 de 3: VIP — Sofía Peña");
    expect(email.text).toContain(`http://localhost:3000/tickets/${billing.id}?t=${billingAccessToken(billing.id)}`);
    expect(email.html).toContain(`href="http://localhost:3000/tickets/${billing.id}?t=${billingAccessToken(billing.id)}"`);

    const files = await s.db.select().from(emailAttachments).where(eq(emailAttachments.emailLogId, email.id));
    const pdfs = files.filter((f) => f.contentType === "application/pdf");
    expect(pdfs.map((f) => f.filename)).toEqual([`entradas-${order.code}.pdf`]);
    const images = files.filter((f) => f.contentType === "image/png");
    expect(images).toHaveLength(3);
    for (const image of images) expect(email.html).toContain(`src="cid:${image.contentId}"`);

    const pdf = await PDFDocument.load(Buffer.from(pdfs[0].contentBase64, "base64"));
    expect(pdf.getPageCount()).toBe(3);
    expect(pdf.getTitle()).toBe(`Entradas Fiesta Bresh · ${order.code}`);
  });

  it("is queued for a free order too, and never for an unpaid one", async () => {
    const s = await setup({ price: 0 });
    const email = `gratis-${Date.now()}@example.com`;
    const { order } = await createOrder(await ctxAs(), { eventSlug: s.event.slug, items: [{ ticketId: s.general.id, qty: 1 }], payer: payer(email), paymentMethod: "MERCADO_PAGO" });
    const paid = await setup();
    const { order: unpaid } = await createOrder(await ctxAs(), { eventSlug: paid.event.slug, items: [{ ticketId: paid.general.id, qty: 1 }], payer: payer(email), paymentMethod: "MERCADO_PAGO" });
    await runDueJobs(s.db, jobHandlers, new Date(Date.now() + 1000), 100);
    const sent = await emailsTo(email, "tickets");
    expect(sent.map((e) => e.subject)).toEqual([`Tu entrada para Noche de Cumbia · ${order.code}`]);
    expect(await sendTicketsEmail(s.db, unpaid.id)).toBe("nothing-to-send");
  });

  it("counts a failed delivery as not sent: the next run of the job sends it", async () => {
    const s = await setup();
    const buyerEmail = `smtp-${Date.now()}@example.com`;
    const { order } = await buyAndPay(s, { email: buyerEmail });
    await s.db.insert(emailLog).values({ to: buyerEmail, subject: `Tus entradas para Noche de Cumbia · ${order.code}`, kind: "tickets", html: "", text: "", status: "failed", error: "SMTP caído" });
    expect(await sendTicketsEmail(s.db, order.id)).toBe("sent");
    expect((await emailsTo(buyerEmail, "tickets")).map((e) => e.status).sort()).toEqual(["failed", "logged"]);
  });
});

describe("purchase page access", () => {
  it("lets the token holder, the buyer's account and the organization read it; refuses strangers", async () => {
    const s = await setup();
    const buyer = await createTestUser();
    const { billing, order } = await buyAndPay(s, { userId: buyer.id, userEmail: buyer.email });

    const byToken = await getPurchaseTickets(await ctxAs(), billing.id, { token: billingAccessToken(billing.id) });
    expect(byToken).toMatchObject({ state: "confirmed", orderCode: order.code, payerEmail: order.payer.email });
    expect(byToken.tickets.map((t) => [t.ticketTypeName, t.statusLabel])).toEqual([
      ["General", "Válida"],
      ["General", "Válida"],
      ["VIP", "Válida"],
    ]);
    expect(verifyQrPayload(byToken.tickets[0].qrPayload)).toBe(byToken.tickets[0].code);

    const byOwner = await getPurchaseTickets(await ctxAs(actorFor(buyer)), billing.id);
    expect(byOwner.tickets).toHaveLength(3);
    const byOrganizer = await getPurchaseTickets(s.producer.ctx, billing.id);
    expect(byOrganizer.tickets).toHaveLength(3);

    const stranger = await createTestUser();
    await expect(getPurchaseTickets(await ctxAs(actorFor(stranger)), billing.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getPurchaseTickets(await ctxAs(), billing.id)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(getPurchaseTickets(await ctxAs(), billing.id, { token: billingAccessToken(order.id) })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("says pending before the payment, and shows the tickets voided after a refund", async () => {
    const s = await setup();
    const { order, billing } = await createOrder(await ctxAs(), { eventSlug: s.event.slug, items: [{ ticketId: s.general.id, qty: 1 }], payer: payer(), paymentMethod: "MERCADO_PAGO" });
    const token = billingAccessToken(billing.id);
    expect((await getPurchaseTickets(await ctxAs(), billing.id, { token })).state).toBe("pending");
    await payInSandbox(s.db, billing.id, "approved");
    expect((await getPurchaseTickets(await ctxAs(), billing.id, { token })).state).toBe("confirmed");
    await s.db.update(billings).set({ status: "refunded" }).where(eq(billings.orderId, order.id));
    const refunded = await getPurchaseTickets(await ctxAs(), billing.id, { token });
    expect(refunded.state).toBe("voided");
    expect(refunded.tickets.map((t) => t.statusLabel)).toEqual(["Anulada"]);
  });
});

describe("listMyTickets", () => {
  it("groups the person's tickets (bought signed in, or claimed through the purchase link) into upcoming and past", async () => {
    const soon = await setup({ days: 2, name: "Recital Pronto" });
    const later = await setup({ days: 20, name: "Festival Lejano" });
    const user = await createTestUser();
    const other = await createTestUser();
    await buyAndPay(soon, { userId: user.id, userEmail: user.email, email: "otra-persona@example.com" });
    // Bought without signing in, with the account's email: not theirs until they open its link signed in.
    const anonymous = await buyAndPay(later, { email: user.email.toUpperCase() });
    // Someone else's purchase does not show, even paid with this account's email.
    await buyAndPay(later, { userId: other.id, userEmail: other.email, email: user.email });

    const ctx = await ctxAs(actorFor(user));
    expect((await listMyTickets(ctx)).upcoming.map((t) => t.event.name)).toEqual(["Recital Pronto", "Recital Pronto", "Recital Pronto"]);
    await getPurchaseTickets(ctx, anonymous.billing.id, { token: billingAccessToken(anonymous.billing.id) });
    const now = await listMyTickets(ctx);
    expect(now.upcoming.map((t) => t.event.name)).toEqual(["Recital Pronto", "Recital Pronto", "Recital Pronto", "Festival Lejano", "Festival Lejano", "Festival Lejano"]);
    expect(now.past).toEqual([]);
    expect(now.upcoming[0]).toMatchObject({ statusLabel: "Válida", holderName: "Sofía Peña", ticketTypeName: "General" });
    expect(now.upcoming[0].billingId).toBeTruthy();

    const afterFirst = await listMyTickets({ ...ctx, now: daysFromNow(5) });
    expect(afterFirst.upcoming.map((t) => t.event.name)).toEqual(["Festival Lejano", "Festival Lejano", "Festival Lejano"]);
    expect(afterFirst.past.map((t) => t.event.name)).toEqual(["Recital Pronto", "Recital Pronto", "Recital Pronto"]);

    await expect(listMyTickets(await ctxAs())).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe.runIf(hasPostgresServer)("tickets email under concurrent notifications", () => {
  it("five deliveries of the same approval at once queue one job and send one email", async () => {
    const s = await setup();
    const buyerEmail = `concurrente-${Date.now()}@example.com`;
    const { order, billing } = await createOrder(await ctxAs(), { eventSlug: s.event.slug, items: [{ ticketId: s.general.id, qty: 2 }], payer: payer(buyerEmail), paymentMethod: "MERCADO_PAGO" });
    const payment = await new SandboxProvider(s.db).recordPayment(billing, "approved");
    await Promise.all(Array.from({ length: 5 }, () => handleMercadoPagoNotification(s.db, buildSignedNotification(payment.id))));
    const queued = await s.db.select().from(jobs).where(sql`${jobs.kind} = ${SEND_TICKETS_EMAIL_JOB} and ${jobs.payload}->>'orderId' = ${order.id}`);
    expect(queued).toHaveLength(1);
    const later = new Date(Date.now() + 1000);
    await Promise.all([runDueJobs(s.db, jobHandlers, later, 100), runDueJobs(s.db, jobHandlers, later, 100)]);
    expect(await emailsTo(buyerEmail, "tickets")).toHaveLength(1);
  });
});

describe("reserved seating on the buyer's tickets (docs/seating.md)", () => {
  it("Mis tickets, the purchase page, the email and its PDF say the seat; a general-admission purchase has no seat line", async () => {
    const { createSeatedEvent, buyPaid } = await import("#tests/support/seating");
    const { drawnText } = await import("#tests/support/pdf-text");
    const made = await createSeatedEvent();
    const user = await createTestUser();
    const ctx = await ctxAs(actorFor({ ...user, roles: [] }));
    const seated = await buyPaid(made, { seats: ["F12", "F13"], ctx, email: user.email });
    const general = await buyPaid(made, { general: 1, ctx, email: user.email });

    const mine = (await listMyTickets(ctx)).upcoming;
    expect(mine.filter((t) => t.orderId === seated.order.id).map((t) => t.seat?.label).sort()).toEqual(["Platea · Fila F · Asiento 12", "Platea · Fila F · Asiento 13"]);
    expect(mine.find((t) => t.orderId === seated.order.id)?.seat).toMatchObject({ section: "Platea", row: "F" });
    expect(mine.find((t) => t.orderId === general.order.id)?.seat).toBeNull();
    const purchase = await getPurchaseTickets(ctx, seated.billing.id);
    expect(purchase.tickets.map((t) => t.seat?.label).sort()).toEqual(["Platea · Fila F · Asiento 12", "Platea · Fila F · Asiento 13"]);

    const db = await getDb();
    expect(await sendTicketsEmail(db, seated.order.id)).toBe("sent");
    const [email] = (await emailsTo(user.email, "tickets")).filter((e) => e.subject.endsWith(seated.order.code));
    expect(email.html).toContain("Platea · Fila F · Asiento 12");
    expect(email.html).toContain("Platea · Fila F · Asiento 13");
    expect(email.text).toContain("Platea · Fila F · Asiento 12");
    const pdf = (await db.select().from(emailAttachments).where(eq(emailAttachments.emailLogId, email.id))).find((f) => f.contentType === "application/pdf")!;
    const text = await drawnText(Buffer.from(pdf.contentBase64, "base64"));
    expect(text).toContain("Platea · Fila F · Asiento 12");
    expect(text).toContain("Platea · Fila F · Asiento 13");

    expect(await sendTicketsEmail(db, general.order.id)).toBe("sent");
    const [plain] = (await emailsTo(user.email, "tickets")).filter((e) => e.subject.endsWith(general.order.code));
    expect(plain.html).not.toContain("Asiento");
    expect(plain.text).not.toContain("Asiento");
  }, 60_000);
});
