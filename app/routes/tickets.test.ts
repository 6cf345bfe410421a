import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { jobHandlers } from "#server/worker/handlers";
import { runDueJobs } from "#server/jobs/queue";
import { billingAccessToken } from "#server/auth/billing-access";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { lastEmailTo } from "#tests/support/mailbox";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as attachment from "./dev.correos.$id.adjuntos.$attachmentId";
import * as mailbox from "./dev.correos.$id";
import * as myTickets from "./cuenta.mis-tickets";
import * as sendTicket from "./cuenta.mis-tickets_.enviar.$ticketId";
import * as purchasePage from "./tickets.$billingId";
import * as purchasePdf from "./tickets.$billingId.pdf";

async function purchase(options: { user?: { id: string; email: string; roles: string[] }; pay?: boolean; days?: number; name?: string } = {}) {
  const { ctx, organization } = await createProducer();
  const { event } = await createPublishedEvent(ctx, organization.id, { days: options.days, name: options.name ?? "Fiesta de Prueba" });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const email = options.user?.email ?? `anon-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const payer = { firstName: "Lucía", lastName: "Ríos", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
  const { order, billing } = await createOrder(await ctxAs(options.user ? actorFor(options.user) : undefined), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: 2 }],
    payer,
    paymentMethod: "MERCADO_PAGO",
  });
  if (options.pay !== false) await payInSandbox(db, billing.id, "approved");
  return { event, order, billing, email, organizerCtx: ctx };
}

async function cookiesOf(user: { id: string; email: string; roles: string[] }) {
  const tokens = await startSession(await getDb(), user, new Date());
  return { at: tokens.accessToken, rt: tokens.refreshToken };
}

describe("/tickets/{billingId}", () => {
  it("shows the confirmation with every QR to the link's token and to the buyer's account; strangers get 404, anonymous goes to sign in", async () => {
    const buyer = await createTestUser();
    const { billing, order, email } = await purchase({ user: buyer });
    const token = billingAccessToken(billing.id);

    const byToken = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}?t=${token}`), { billingId: billing.id });
    expect(byToken.status).toBe(200);
    expect(byToken.data).toMatchObject({ state: "confirmed", orderCode: order.code, payerEmail: email, pdfPath: `/tickets/${billing.id}/pdf?t=${token}` });
    expect(byToken.data.cards).toHaveLength(2);
    expect(byToken.data.cards[0]).toMatchObject({ statusLabel: "Válida", holderName: "Lucía Ríos", ticketTypeName: "General", position: { index: 1, count: 2 } });
    expect(byToken.data.cards[0].qrSvg).toMatch(/^<svg/);
    expect(byToken.data.cards[0].when).toMatch(/^\p{Lu}\p{Ll}+ \d{1,2} de \p{Ll}+ de \d{4} · \d\d:\d\d h$/u);

    const byOwner = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}`, { cookies: await cookiesOf(buyer) }), { billingId: billing.id });
    expect(byOwner.data.cards).toHaveLength(2);

    const stranger = await createTestUser();
    const refused = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}`, { cookies: await cookiesOf(stranger) }), { billingId: billing.id });
    expect(refused.status).toBe(404);
    const wrongToken = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}?t=${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}`, { cookies: await cookiesOf(stranger) }), { billingId: billing.id });
    expect(wrongToken.status).toBe(404);

    const anonymous = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}`), { billingId: billing.id });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe("/cuenta/iniciar-sesion/email?forcedLogin=true");
    expect(anonymous.cookies["loggin-callback"].value).toBe(`/tickets/${billing.id}`);
  });

  it("says it is waiting for the payment (and reloads itself) while the billing is pending", async () => {
    const { billing } = await purchase({ pay: false });
    const result = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}?t=${billingAccessToken(billing.id)}`), { billingId: billing.id });
    expect(result.data).toMatchObject({ state: "pending", cards: [] });
    const tags = purchasePage.meta({ data: result.data } as never) as Record<string, string>[];
    expect(tags).toContainEqual({ httpEquiv: "refresh", content: "5" });
  });

  it("downloads the PDF with one page per ticket, with the same access rules", async () => {
    const { billing, order } = await purchase();
    const ok = await run(purchasePdf.loader, getRequest(`/tickets/${billing.id}/pdf?t=${billingAccessToken(billing.id)}`), { billingId: billing.id });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/pdf");
    expect(ok.headers.get("content-disposition")).toBe(`attachment; filename="entradas-${order.code}.pdf"`);
    const response = await purchasePdf.loader({ request: getRequest(`/tickets/${billing.id}/pdf?t=${billingAccessToken(billing.id)}`), params: { billingId: billing.id }, context: {} } as never);
    const pdf = await PDFDocument.load(new Uint8Array(await (response as Response).arrayBuffer()));
    expect(pdf.getPageCount()).toBe(2);

    const anonymous = await run(purchasePdf.loader, getRequest(`/tickets/${billing.id}/pdf`), { billingId: billing.id });
    expect(anonymous.status).toBe(302);
  });
});

describe("/cuenta/mis-tickets", () => {
  it("asks to sign in, then shows the person's tickets grouped into upcoming and past", async () => {
    const anonymous = await run(myTickets.loader, getRequest("/cuenta/mis-tickets"));
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe("/cuenta/iniciar-sesion/email?forcedLogin=true");

    const user = await createTestUser();
    const cookies = await cookiesOf(user);
    const empty = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }));
    expect(empty.data).toEqual({ upcoming: [], past: [] });

    const { billing } = await purchase({ user, name: "Recital Próximo" });
    const result = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }));
    expect(result.data.upcoming.map((c: { eventName: string }) => c.eventName)).toEqual(["Recital Próximo", "Recital Próximo"]);
    expect(result.data.past).toEqual([]);
    expect(result.data.upcoming[0]).toMatchObject({ statusLabel: "Válida", purchasePath: `/tickets/${billing.id}?t=${billingAccessToken(billing.id)}` });
    expect(result.data.upcoming[0].qrSvg).toMatch(/^<svg/);
  });
});

describe("the tickets email in the dev mailbox", () => {
  it("shows the QR images inline and lists the PDF, which downloads", async () => {
    const { email, order } = await purchase();
    await runDueJobs(await getDb(), jobHandlers, new Date(Date.now() + 1000), 100);
    const sent = await lastEmailTo(email, "tickets");
    const detail = await run(mailbox.loader, getRequest(`/dev/correos/${sent.id}`), { id: sent.id });
    expect(detail.data.email.html).not.toContain("cid:");
    expect(detail.data.email.html).toContain('src="data:image/png;base64,');
    const files = detail.data.email.attachments as { id: string; filename: string; contentType: string; inline: boolean }[];
    expect(files.map((f) => [f.filename, f.inline])).toEqual([
      [`entradas-${order.code}.pdf`, false],
      ["qr-1.png", true],
      ["qr-2.png", true],
    ]);
    const response = (await attachment.loader({ request: getRequest("/"), params: { id: sent.id, attachmentId: files[0].id }, context: {} } as never)) as Response;
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect((await PDFDocument.load(new Uint8Array(await response.arrayBuffer()))).getPageCount()).toBe(2);
  });
});

describe("/cuenta/mis-tickets/enviar/{ticketId}", () => {
  it("sends a ticket with a plain form post: errors next to the field, then back to Mis tickets with the snackbar and the ticket shown as sent", async () => {
    const user = await createTestUser();
    const cookies = await cookiesOf(user);
    await purchase({ user, name: "Recital Para Enviar" });
    const before = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }));
    const [first, second] = before.data.upcoming;
    expect(first.transferPath).toBe(`/cuenta/mis-tickets/enviar/${first.id}`);
    const path = first.transferPath;

    const page = await run(sendTicket.loader, getRequest(path, { cookies }), { ticketId: first.id });
    expect(page.status).toBe(200);
    expect(page.data.ticket).toMatchObject({ eventName: "Recital Para Enviar", ticketTypeName: "General" });

    const invalid = await run(sendTicket.action, formRequest(path, { firstName: "Lucía", lastName: "Gómez", email: "lucia@" }, { cookies }), { ticketId: first.id });
    expect(invalid.status).toBe(400);
    expect(invalid.data.result.error).toEqual({ email: ["Este campo debe ser un email válido"] });

    const email = `lucia-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const sent = await run(sendTicket.action, formRequest(path, { firstName: "Lucía", lastName: "Gómez", email }, { cookies }), { ticketId: first.id });
    expect(sent.status).toBe(302);
    expect(sent.location).toBe("/cuenta/mis-tickets");
    // Tests run without SMTP and with the mailbox open: the snackbar says where the email is.
    expect(JSON.parse(sent.cookies.flash.value)).toEqual({
      type: "success",
      message: `Le enviamos la entrada a Lucía Gómez (${email}). Como no hay un servidor de correo configurado, el correo no sale de esta computadora: lo podés leer en /dev/correos.`,
    });
    expect((await lastEmailTo(email, "ticket-transfer")).subject).toContain("te envió una entrada para Recital Para Enviar");

    const after = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }));
    const sentCard = after.data.upcoming.find((c: { id: string }) => c.id === first.id);
    expect(sentCard).toMatchObject({ statusLabel: "Enviada a Lucía Gómez", transferredTo: "Lucía Gómez", qrSvg: null, transferPath: null });
    expect(after.data.upcoming.find((c: { id: string }) => c.id === second.id)).toMatchObject({ statusLabel: "Válida", transferPath: `/cuenta/mis-tickets/enviar/${second.id}` });

    // Sent once: the form page is gone for it; a stranger never sees someone else's ticket.
    expect((await run(sendTicket.loader, getRequest(path, { cookies }), { ticketId: first.id })).status).toBe(404);
    const stranger = await cookiesOf(await createTestUser());
    expect((await run(sendTicket.loader, getRequest(`/cuenta/mis-tickets/enviar/${second.id}`, { cookies: stranger }), { ticketId: second.id })).status).toBe(404);
  });
});

describe("reserved seating on the buyer's pages (docs/seating.md)", () => {
  it("the purchase page, Mis tickets and the send page carry the seat, and the card shows it; a general-admission card has no seat", async () => {
    const { createSeatedEvent, buyPaid } = await import("#tests/support/seating");
    const { renderToStaticMarkup } = await import("react-dom/server");
    const { createElement } = await import("react");
    const { TicketCard } = await import("#app/components/tickets/TicketCard");
    const made = await createSeatedEvent();
    const user = await createTestUser();
    const cookies = await cookiesOf(user);
    const { billing } = await buyPaid(made, { seats: ["F12"], ctx: await ctxAs(actorFor(user)), email: user.email });
    await buyPaid(made, { general: 1, ctx: await ctxAs(actorFor(user)), email: user.email });

    const page = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}`, { cookies }), { billingId: billing.id });
    expect(page.data.cards[0]).toMatchObject({ ticketTypeName: "Platea", seat: "Platea · Fila F · Asiento 12" });
    const html = renderToStaticMarkup(createElement(TicketCard, { ticket: page.data.cards[0] }));
    expect(html).toContain("Ubicación");
    expect(html).toContain("Platea · Fila F · Asiento 12");

    const mine = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }));
    const cards = mine.data.upcoming as { id: string; ticketTypeName: string; seat: string | null; transferPath: string }[];
    const seated = cards.find((c) => c.ticketTypeName === "Platea")!;
    const general = cards.find((c) => c.ticketTypeName === "General")!;
    expect(seated.seat).toBe("Platea · Fila F · Asiento 12");
    expect(general.seat).toBeNull();
    expect(renderToStaticMarkup(createElement(TicketCard, { ticket: general as never }))).not.toContain("Ubicación");

    const send = await run(sendTicket.loader, getRequest(seated.transferPath, { cookies }), { ticketId: seated.id });
    expect(send.data.ticket).toMatchObject({ seat: "Platea · Fila F · Asiento 12" });
  }, 60_000);
});
