import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { tokenCookies } from "#server/auth/cookies";
import { CLIENT_IP_HEADER } from "#server/auth/request-auth";
import { startSession } from "#server/auth/sessions";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { memberships, orders, ticketTypes } from "#server/db/schema";
import { billingAccessToken } from "#server/auth/billing-access";
import { createOrder } from "#server/orders/orders";
import { createBankAccount, listBankAccounts } from "#server/payouts/bank-accounts";
import { BANK_TRANSFER_MESSAGES } from "#server/bank-transfers/bank-transfers";
import { RECEIPT_MESSAGES } from "#server/bank-transfers/receipts";
import { ticketsOfOrder } from "#server/tickets/issue";
import { actorFor, createTestUser, ctxAs, withSecondFactor } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { BASE_URL, formRequest, getRequest, run } from "#tests/support/remix";
import * as buyerPage from "./checkout.bank-transfer.$billingId";
import * as summaryPage from "./checkout.$billingId";
import * as ticketsPage from "./tickets.$billingId";
import * as receiptRoute from "./comprobantes.$receiptId";
import * as transfersPage from "./organizacion.transferencias-bancarias";
import * as accountsPage from "./organizacion.cuentas-bancarias";
import { realPdf } from "#tests/support/images";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-route-receipts-"));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const PDF = Buffer.from(await realPdf());

async function cookiesOf(user: { id: string; email: string; roles: string[] }) {
  const tokens = await startSession(await getDb(), user as never, new Date());
  return Object.fromEntries(tokenCookies(tokens).map((c) => c.split(";")[0].split("=") as [string, string]));
}

async function setup() {
  const producer = await createProducer();
  // Money destinations ask for the second factor (decision 144).
  await createBankAccount(await withSecondFactor(producer.ctx), { organizationId: producer.organization.id, cbu: "2850590940090418135201", alias: "feria.vinos", holderName: "Feria Natural SRL", holderCuit: "30-71234567-1" });
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "Transferencia", price: 1_000_000, stock: 5, paymentMethod: "BankAccount" }] });
  const [ticket] = await (await getDb()).select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const { order, billing } = await createOrder(await ctxAs(ANONYMOUS), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: 1 }],
    payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "BANK_TRANSFER",
  });
  const t = billingAccessToken(billing.id);
  return { producer, event, ticket, order, billing, t, buyerPath: `/checkout/bank-transfer/${billing.id}?t=${t}`, organizerCookies: await cookiesOf({ ...producer.user, roles: ["producer"] }) };
}

function uploadRequest(pathname: string, bytes: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.append("receipt", new File([Uint8Array.from(bytes)], name, { type }));
  return new Request(new URL(pathname, BASE_URL), { method: "POST", body: form, headers: { [CLIENT_IP_HEADER]: "198.51.100.10" } });
}

describe("/checkout/bank-transfer/{billingId}", () => {
  it("shows the account and amount with the token; without it, a plain 404", async () => {
    const { billing, buyerPath, order } = await setup();
    const page = await run(buyerPage.loader, getRequest(buyerPath), { billingId: billing.id });
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.data).toMatchObject({
      status: "pending",
      order: { code: order.code, total: "$\u00a011.000,00" },
      account: { kind: "CBU", cbu: "2850590940090418135201", alias: "feria.vinos", holderName: "Feria Natural SRL", holderCuit: "30-71234567-1", bankName: "Banco Macro" },
      receipt: null,
    });
    expect((await run(buyerPage.loader, getRequest(`/checkout/bank-transfer/${billing.id}`), { billingId: billing.id })).status).toBe(404);
    expect((await run(buyerPage.loader, getRequest(`/checkout/bank-transfer/${billing.id}?t=x`), { billingId: billing.id })).status).toBe(404);
  });

  it("takes the receipt as multipart, refuses a fake PDF, and serves it only to the buyer and the organization", async () => {
    const { billing, buyerPath, t, organizerCookies } = await setup();
    const fake = await run(buyerPage.action, uploadRequest(buyerPath, Buffer.from("MZ\x90\x00 not a pdf"), "comprobante.pdf", "application/pdf"), { billingId: billing.id });
    expect(fake.status).toBe(400);
    expect(fake.data.errors).toEqual([RECEIPT_MESSAGES.type]);

    const ok = await run(buyerPage.action, uploadRequest(buyerPath, PDF, "comprobante.pdf", "application/pdf"), { billingId: billing.id });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe(buyerPath);
    expect(decodeURIComponent(ok.cookies.flash.value)).toContain(BANK_TRANSFER_MESSAGES.uploaded);

    const page = await run(buyerPage.loader, getRequest(buyerPath), { billingId: billing.id });
    const href: string = page.data.receipt.href;
    expect(href).toMatch(new RegExp(`^/comprobantes/[0-9a-f-]{36}\\?t=${t}$`));
    const receiptId = href.split("/")[2].split("?")[0];

    const asBuyer = await run(receiptRoute.loader, getRequest(href), { receiptId });
    expect(asBuyer.status).toBe(200);
    expect(asBuyer.headers.get("Content-Type")).toBe("application/pdf");
    expect(asBuyer.headers.get("Content-Disposition")).toBe('attachment; filename="comprobante.pdf"');
    expect(asBuyer.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(asBuyer.headers.get("Cache-Control")).toBe("private, no-store");

    const asOrganizer = await run(receiptRoute.loader, getRequest(`/comprobantes/${receiptId}`, { cookies: organizerCookies }), { receiptId });
    expect(asOrganizer.status).toBe(200);

    const stranger = await createTestUser();
    const asStranger = await run(receiptRoute.loader, getRequest(`/comprobantes/${receiptId}`, { cookies: await cookiesOf({ ...stranger, roles: [] }) }), { receiptId });
    expect(asStranger.status).toBe(404);
    const anonymous = await run(receiptRoute.loader, getRequest(`/comprobantes/${receiptId}`), { receiptId });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe("/cuenta/iniciar-sesion/email?forcedLogin=true");
    expect((await run(receiptRoute.loader, getRequest(`/comprobantes/../../etc/passwd`), { receiptId: "../../etc/passwd" })).status).toBe(404);
  });
});

describe("/organizacion/transferencias-bancarias", () => {
  it("lists the pending transfer and approves it with a plain form post; the buyer's page then goes to the tickets", async () => {
    const { billing, order, organizerCookies, producer, buyerPath } = await setup();
    const list = await run(transfersPage.loader, getRequest("/organizacion/transferencias-bancarias", { cookies: organizerCookies }));
    expect(list.status).toBe(200);
    expect(list.data.items).toHaveLength(1);
    expect(list.data.items[0]).toMatchObject({ billingId: billing.id, orderCode: order.code, amount: "$\u00a011.000,00", status: "pending", receipt: null });

    // Operators see but cannot decide.
    const operator = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: producer.organization.id, userId: operator.id, role: "operator" });
    const operatorCookies = await cookiesOf({ ...operator, roles: [] });
    expect((await run(transfersPage.loader, getRequest("/organizacion/transferencias-bancarias", { cookies: operatorCookies }))).data.canDecide).toBe(false);
    // The back office's 403 page (thrown `data(…, 403)`).
    const refused = await run(transfersPage.action, formRequest("/organizacion/transferencias-bancarias", { intent: "approve", billingId: billing.id }, { cookies: operatorCookies }));
    expect(refused.status).toBe(403);
    expect(refused.data.message).toBe("No tenés permiso para hacer esto.");
    expect(await ticketsOfOrder(await getDb(), order.id)).toHaveLength(0);

    const approved = await run(transfersPage.action, formRequest("/organizacion/transferencias-bancarias", { intent: "approve", billingId: billing.id }, { cookies: organizerCookies }));
    expect(approved.status).toBe(302);
    expect(decodeURIComponent(approved.cookies.flash.value)).toContain(BANK_TRANSFER_MESSAGES.approved);
    expect(await ticketsOfOrder(await getDb(), order.id)).toHaveLength(1);

    const buyer = await run(buyerPage.loader, getRequest(buyerPath), { billingId: billing.id });
    expect(buyer.status).toBe(302);
    expect(buyer.location).toBe(`/tickets/${billing.id}?t=${billingAccessToken(billing.id)}`);
  });

  it("rejects with the reason and shows it to the buyer", async () => {
    const { billing, organizerCookies, buyerPath } = await setup();
    const rejected = await run(transfersPage.action, formRequest("/organizacion/transferencias-bancarias", { intent: "reject", billingId: billing.id, reason: "No llegó" }, { cookies: organizerCookies }));
    expect(decodeURIComponent(rejected.cookies.flash.value)).toContain(BANK_TRANSFER_MESSAGES.rejected);
    const buyer = await run(buyerPage.loader, getRequest(buyerPath), { billingId: billing.id });
    expect(buyer.data).toMatchObject({ status: "rejected", rejectionReason: "No llegó" });
    const again = await run(transfersPage.action, formRequest("/organizacion/transferencias-bancarias", { intent: "approve", billingId: billing.id }, { cookies: organizerCookies }));
    expect(decodeURIComponent(again.cookies.flash.value)).toContain(BANK_TRANSFER_MESSAGES.cannotApproveRejected);
  });
});

describe("the buyer's pages never hand a signed-in reader a token they did not bring", () => {
  const approve = async (billingId: string, organizerCookies: Record<string, string>) => {
    const approved = await run(transfersPage.action, formRequest("/organizacion/transferencias-bancarias", { intent: "approve", billingId }, { cookies: organizerCookies }));
    expect(approved.status).toBe(302);
  };
  const buyerOf = async (orderId: string) => (await (await getDb()).select({ buyerUserId: orders.buyerUserId }).from(orders).where(eq(orders.id, orderId)))[0].buyerUserId;

  it("an organizer opening a buyer's approved transfer goes to the tickets without the buyer's token, and the purchase stays the buyer's", async () => {
    const { billing, order, organizerCookies } = await setup();
    await approve(billing.id, organizerCookies);
    for (const [page, path] of [
      [buyerPage, `/checkout/bank-transfer/${billing.id}`],
      [summaryPage, `/checkout/${billing.id}`],
    ] as const) {
      const opened = await run(page.loader, getRequest(path, { cookies: organizerCookies }), { billingId: billing.id });
      expect(opened.status).toBe(302);
      expect(opened.location).toBe(`/tickets/${billing.id}`);
    }
    const tickets = await run(ticketsPage.loader, getRequest(`/tickets/${billing.id}`, { cookies: organizerCookies }), { billingId: billing.id });
    expect(tickets.status).toBe(200);
    expect(tickets.data).toMatchObject({ state: "confirmed", pagePath: `/tickets/${billing.id}`, pdfPath: `/tickets/${billing.id}/pdf` });
    // Nothing claimed the anonymous purchase for the organizer: it is still the buyer's, behind their link.
    expect(await buyerOf(order.id)).toBeNull();
  });

  it("an organizer buying for their own event sees the same bank-transfer page as anyone, and their tickets without a token in the URL", async () => {
    const { producer, event, ticket, organizerCookies } = await setup();
    const mine = await createOrder(await ctxAs(actorFor({ ...producer.user, roles: ["producer"] })), {
      eventSlug: event.slug,
      items: [{ ticketId: ticket.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: producer.user.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "BANK_TRANSFER",
    });
    const withToken = `/checkout/bank-transfer/${mine.billing.id}?t=${billingAccessToken(mine.billing.id)}`;
    const pending = await run(buyerPage.loader, getRequest(withToken, { cookies: organizerCookies }), { billingId: mine.billing.id });
    const anonymous = await run(buyerPage.loader, getRequest(withToken), { billingId: mine.billing.id });
    expect(pending.status).toBe(200);
    expect(pending.data).toEqual(anonymous.data);

    await approve(mine.billing.id, organizerCookies);
    const opened = await run(buyerPage.loader, getRequest(withToken, { cookies: organizerCookies }), { billingId: mine.billing.id });
    expect(opened.location).toBe(`/tickets/${mine.billing.id}`);
    // Signed out, the link's token is what opens the tickets, so it goes along.
    expect((await run(buyerPage.loader, getRequest(withToken), { billingId: mine.billing.id })).location).toBe(`/tickets/${mine.billing.id}?t=${billingAccessToken(mine.billing.id)}`);
  });

  it("a buyer who bought signed out and opens the link signed in (an organizer too) still gets the purchase into their account", async () => {
    const { billing, order, t, organizerCookies, producer } = await setup();
    await approve(billing.id, organizerCookies);
    const withToken = `/checkout/bank-transfer/${billing.id}?t=${t}`;
    const opened = await run(buyerPage.loader, getRequest(withToken, { cookies: organizerCookies }), { billingId: billing.id });
    expect(opened.location).toBe(`/tickets/${billing.id}?t=${t}`);
    const tickets = await run(ticketsPage.loader, getRequest(opened.location!, { cookies: organizerCookies }), { billingId: billing.id });
    expect(tickets.status).toBe(200);
    expect(await buyerOf(order.id)).toBe(producer.user.id);
    // Once it is theirs, the page's own links need no token.
    expect(tickets.data.pagePath).toBe(`/tickets/${billing.id}`);
  });
});

describe("/organizacion/cuentas-bancarias", () => {
  it("adds an account from the form, with the field's message on a wrong CBU", async () => {
    const producer = await createProducer();
    const cookies = await cookiesOf({ ...producer.user, roles: ["producer"] });
    const fields = { intent: "create", cbu: "2850590940090418135202", alias: "", holderName: "Ana Paz", holderCuit: "30-71234567-1", bankName: "" };
    const wrong = await run(accountsPage.action, formRequest("/organizacion/cuentas-bancarias", fields, { cookies }));
    expect(wrong.status).toBe(400);
    expect(wrong.data.target).toBe("new");
    expect(wrong.data.errors.cbu).toEqual(["Ingresá un CBU o CVU válido (22 números, revisá los dígitos verificadores)"]);
    // A money destination asks for the second factor, as a withdrawal does (decision 144): without it on, to turn it on; nothing saved.
    const unproved = await run(accountsPage.action, formRequest("/organizacion/cuentas-bancarias", { ...fields, cbu: "2850590940090418135201" }, { cookies }));
    expect(unproved).toMatchObject({ status: 302, location: "/cuenta/seguridad" });
    expect(await listBankAccounts(producer.ctx, { organizationId: producer.organization.id })).toEqual([]);
    // On but not proved in this sign-in: to /cuenta/verificacion and back here.
    const { sessionCookiesFor } = await import("#tests/support/context");
    const enrolledOnly = await sessionCookiesFor(producer.user.id, { secondFactor: true });
    await (await getDb()).execute(sql`delete from two_factor_verifications where user_id = ${producer.user.id}`);
    const toVerify = await run(accountsPage.action, formRequest("/organizacion/cuentas-bancarias", { ...fields, cbu: "2850590940090418135201" }, { cookies: enrolledOnly }));
    expect(toVerify).toMatchObject({ status: 302, location: `/cuenta/verificacion?returnTo=${encodeURIComponent("/organizacion/cuentas-bancarias")}` });
    const verified = await sessionCookiesFor(producer.user.id, { secondFactor: true });
    const ok = await run(accountsPage.action, formRequest("/organizacion/cuentas-bancarias", { ...fields, cbu: "2850590940090418135201" }, { cookies: verified }));
    expect(ok).toMatchObject({ status: 302, location: "/organizacion/cuentas-bancarias" });
    const [account] = await listBankAccounts(producer.ctx, { organizationId: producer.organization.id });
    expect(account).toMatchObject({ bankName: "Banco Macro", forTicketTransfers: true });
    const page = await run(accountsPage.loader, getRequest("/organizacion/cuentas-bancarias", { cookies }));
    expect(page.data.accounts).toHaveLength(1);
    expect(page.data.accounts[0]).toMatchObject({ cbuLabel: "28505909 40090418135201", holderCuit: "30-71234567-1" });
  });
});
