import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runCampaign } from "#server/campaigns/campaigns";
import { EMAIL_LOG_MESSAGES } from "#server/campaigns/email-log";
import { isUnsubscribed, unsubscribeToken } from "#server/campaigns/unsubscribe";
import { getDb } from "#server/db/client";
import { campaigns, emailLog, memberships } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { sendTicketsEmail } from "#server/tickets/email";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as unsubscribePage from "./correos.baja.$token";
import * as campaignsPage from "./organizacion.campanias-de-email";
import * as templatesPage from "./organizacion.campanias-de-email_.plantillas";
import * as editorPage from "./organizacion.campanias-de-email_.plantillas_.crear";
import * as editEvent from "./organizacion.evento.editar.$slug";
import * as withdrawals from "./organizacion.extracciones";
import * as emailLogPage from "./organizacion.log-emails";
import { INLINE_IMAGE_PLACEHOLDER } from "#app/components/campaigns/EmailPreview";
import { contentSecurityPolicy } from "#server/http/csp";
import * as pixel from "./organizacion.marketing-pixel";
import * as sales from "./organizacion.resumen-de-ventas";

async function paidBuyer(made: Awaited<ReturnType<typeof createEventWithTickets>>, email: string) {
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: made.event.slug,
    items: [{ ticketId: made.tickets.General.id, qty: 1 }],
    payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(await getDb(), billing.id, "approved");
  // The queue would send it a moment later.
  await sendTicketsEmail(await getDb(), order.id);
}

async function member(organizationId: string, role: "marketing" | "operator" | "staff") {
  const user = await createTestUser();
  await (await getDb()).insert(memberships).values({ organizationId, userId: user.id, role });
  return sessionCookiesFor(user.id);
}

describe("/organizacion/campanias-de-email", () => {
  it("a template with a bad variable gets the message next to the field; then a campaign to an event's buyers is created, counted, sent, logged, resent, and unsubscribed from", async () => {
    const made = await createEventWithTickets();
    const buyer = `compradora-${randomTag(6)}@example.com`;
    await paidBuyer(made, buyer);
    const cookies = await sessionCookiesFor(made.user.id);

    const bad = await run(editorPage.action, formRequest("/organizacion/campanias-de-email/plantillas/crear", { intent: "save", name: "Aviso", subject: "Hola", body: "Hola {{nombe}}" }, { cookies }));
    expect(bad.status).toBe(400);
    expect(bad.data.errors.body[0]).toMatch(/^No conocemos la variable \{\{nombe\}\}\. Podés usar: \{\{nombre\}\}/);
    expect(bad.data.values.body).toBe("Hola {{nombe}}");

    const preview = await run(editorPage.action, formRequest("/organizacion/campanias-de-email/plantillas/crear", { intent: "preview", name: "Aviso", subject: "Hola {{nombre}}", body: "<script>x</script> {{evento}}" }, { cookies }));
    expect(preview.data.preview.subject).toBe("Hola Sofía");
    expect(preview.data.preview.html).toContain("&lt;script&gt;x&lt;/script&gt; Noche de Cumbia");

    const saved = await run(editorPage.action, formRequest("/organizacion/campanias-de-email/plantillas/crear", { intent: "save", name: "Aviso", subject: "¡Se viene {{evento}}!", body: "Hola {{nombre}}, te esperamos." }, { cookies }));
    expect(saved.status).toBe(302);
    const templates = await run(templatesPage.loader, getRequest("/organizacion/campanias-de-email/plantillas", { cookies }));
    expect(templates.data.templates).toEqual([expect.objectContaining({ name: "Aviso", subject: "¡Se viene {{evento}}!" })]);
    const templateId = templates.data.templates[0].id;

    const counted = await run(campaignsPage.action, formRequest("/organizacion/campanias-de-email", { intent: "count", audience: `event:${made.event.id}` }, { cookies }));
    expect(counted.data.audienceCount).toBe(1);
    const noAudience = await run(campaignsPage.action, formRequest("/organizacion/campanias-de-email", { intent: "create", name: "Preventa", templateId, audience: "" }, { cookies }));
    expect(noAudience.status).toBe(400);
    expect(noAudience.data.errors.audience).toEqual(["Elegí a quién le mandás la campaña."]);

    const created = await run(campaignsPage.action, formRequest("/organizacion/campanias-de-email", { intent: "create", name: "Preventa", templateId, subject: "", audience: `event:${made.event.id}` }, { cookies }));
    expect(created.status).toBe(302);
    const campaignId = new URL(created.location!, "http://x").searchParams.get("campania")!;
    const draft = await run(campaignsPage.loader, getRequest(created.location!, { cookies }));
    expect(draft.data.selected).toMatchObject({ status: "draft", audienceSize: 1, subject: "¡Se viene {{evento}}!" });
    expect(draft.data.selected.previewHtml).toContain("Hola Sofía, te esperamos.");

    const sent = await run(campaignsPage.action, formRequest("/organizacion/campanias-de-email", { intent: "send", campaignId }, { cookies }));
    expect(sent.status).toBe(302);
    await runCampaign(await getDb(), campaignId, new Date());
    const done = await run(campaignsPage.loader, getRequest(`/organizacion/campanias-de-email?campania=${campaignId}`, { cookies }));
    expect(done.data.selected).toMatchObject({ status: "done", counts: { sent: 1, failed: 0, pending: 0, skipped: 0 } });

    const log = await run(emailLogPage.loader, getRequest(`/organizacion/log-emails?q=${encodeURIComponent(buyer.slice(0, 12))}`, { cookies }));
    // The purchase's tickets email and the campaign: both are the organization's.
    expect(log.data.emails.map((e: { kind: string }) => e.kind).sort()).toEqual(["Campaña", "Entradas"]);
    const campaignEmail = log.data.emails.find((e: { kind: string }) => e.kind === "Campaña");
    expect(campaignEmail.subject).toBe(`¡Se viene ${made.event.name}!`);
    const opened = await run(emailLogPage.loader, getRequest(`/organizacion/log-emails?correo=${campaignEmail.id}`, { cookies }));
    expect(opened.data.selected.html).toContain("te esperamos");
    const resent = await run(emailLogPage.action, formRequest("/organizacion/log-emails", { intent: "resend", emailId: campaignEmail.id }, { cookies }));
    expect(resent.status).toBe(302);
    const db = await getDb();
    const copies = await db.select().from(emailLog).where(and(eq(emailLog.to, buyer), eq(emailLog.kind, "campaign")));
    expect(copies).toHaveLength(2);
    expect(copies[0].html).toBe(copies[1].html);
    expect(copies[1].headers).toEqual(copies[0].headers);

    // The unsubscribe link: GET changes nothing, the one-click POST unsubscribes.
    const token = unsubscribeToken(made.organization.id, buyer);
    const shown = await run(unsubscribePage.loader, getRequest(`/correos/baja/${token}`), { token });
    expect(shown.data).toEqual({ organizationName: made.organization.name, email: buyer, unsubscribed: false });
    expect(await isUnsubscribed(db, made.organization.id, buyer)).toBe(false);
    const oneClick = await run(unsubscribePage.action, formRequest(`/correos/baja/${token}`, { "List-Unsubscribe": "One-Click" }), { token });
    expect(oneClick.status).toBe(200);
    expect(await isUnsubscribed(db, made.organization.id, buyer)).toBe(true);
    // No more campaigns to them, not even a resend.
    const again = await run(emailLogPage.action, formRequest("/organizacion/log-emails", { intent: "resend", emailId: campaignEmail.id }, { cookies }));
    expect(again.status).toBe(400);
    expect(again.data.snackbar.message).toBe(EMAIL_LOG_MESSAGES.unsubscribed);
    const recount = await run(campaignsPage.action, formRequest("/organizacion/campanias-de-email", { intent: "count", audience: `event:${made.event.id}` }, { cookies }));
    expect(recount.data.audienceCount).toBe(0);
  });

  it("the unsubscribe page's button unsubscribes; a forged token is refused", async () => {
    const made = await createEventWithTickets();
    const email = `lector-${randomTag(6)}@example.com`;
    const token = unsubscribeToken(made.organization.id, email);
    const posted = await run(unsubscribePage.action, formRequest(`/correos/baja/${token}`, {}), { token });
    expect(posted.data).toEqual({ organizationName: made.organization.name, email, unsubscribed: true });
    expect(await isUnsubscribed(await getDb(), made.organization.id, email)).toBe(true);
    const forged = `${Buffer.from(`${made.organization.id}:otra-${email}`).toString("base64url")}.${token.split(".")[1]}`;
    const refused = await run(unsubscribePage.action, formRequest(`/correos/baja/${forged}`, {}), { token: forged });
    expect(refused.status).toBe(404);
    expect(await isUnsubscribed(await getDb(), made.organization.id, `otra-${email}`)).toBe(false);
    const refusedPage = await run(unsubscribePage.loader, getRequest(`/correos/baja/${forged}`), { token: forged });
    expect(refusedPage.status).toBe(404);
  });

  it("marketing sees campaigns, templates, the email log and the pixel, and nothing else; operators and staff do not see campaigns", async () => {
    const made = await createEventWithTickets();
    const marketing = await member(made.organization.id, "marketing");
    for (const [name, loader, path] of [
      ["campaigns", campaignsPage.loader, "/organizacion/campanias-de-email"],
      ["templates", templatesPage.loader, "/organizacion/campanias-de-email/plantillas"],
      ["new template", editorPage.loader, "/organizacion/campanias-de-email/plantillas/crear"],
      ["email log", emailLogPage.loader, "/organizacion/log-emails"],
      ["pixel", pixel.loader, `/organizacion/marketing-pixel?eventId=${made.event.id}`],
    ] as const) {
      expect([name, (await run(loader, getRequest(path, { cookies: marketing }))).status]).toEqual([name, 200]);
    }
    for (const [name, loader, path, params] of [
      ["sales", sales.loader, "/organizacion/resumen-de-ventas", {}],
      ["withdrawals", withdrawals.loader, "/organizacion/extracciones", {}],
      ["edit event", editEvent.loader, `/organizacion/evento/editar/${made.event.slug}`, { slug: made.event.slug }],
    ] as const) {
      expect([name, (await run(loader, getRequest(path, { cookies: marketing }), params)).status]).toEqual([name, 403]);
    }
    for (const role of ["operator", "staff"] as const) {
      const cookies = await member(made.organization.id, role);
      expect((await run(campaignsPage.loader, getRequest("/organizacion/campanias-de-email", { cookies }))).status).toBe(403);
      expect((await run(editorPage.loader, getRequest("/organizacion/campanias-de-email/plantillas/crear", { cookies }))).status).toBe(403);
      expect((await run(emailLogPage.loader, getRequest("/organizacion/log-emails", { cookies }))).status).toBe(403);
    }
  });

  it("a tickets email's preview shows a stand-in for each QR, allowed by the page's own policy, never the QR", async () => {
    const made = await createEventWithTickets();
    const buyer = `qr-${randomTag(6)}@example.com`;
    await paidBuyer(made, buyer);
    const cookies = await sessionCookiesFor(made.user.id);
    const [logged] = await (await getDb()).select().from(emailLog).where(eq(emailLog.to, buyer));
    expect(logged.html).toContain('src="cid:');
    const opened = await run(emailLogPage.loader, getRequest(`/organizacion/log-emails?correo=${logged.id}`, { cookies }));
    const html: string = opened.data.selected.html;
    const sources = [...html.matchAll(/<img[^>]*\ssrc="([^"]*)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    expect(html).not.toContain("cid:");
    expect(sources.every((src) => src === INLINE_IMAGE_PLACEHOLDER)).toBe(true);
    // The page's policy, unchanged, already lets a data: image in (the srcdoc frame inherits it).
    const imgSrc = contentSecurityPolicy("n").split("; ").find((d) => d.startsWith("img-src "))!;
    expect(imgSrc.split(" ")).toContain("data:");
    expect(decodeURIComponent(INLINE_IMAGE_PLACEHOLDER)).toContain("no se muestra en el registro");
  });

  it("another organization's campaign, template and logged email are refused", async () => {
    const made = await createEventWithTickets();
    const buyer = `ajena-${randomTag(6)}@example.com`;
    await paidBuyer(made, buyer);
    const cookies = await sessionCookiesFor(made.user.id);
    await run(editorPage.action, formRequest("/organizacion/campanias-de-email/plantillas/crear", { intent: "save", name: "Mía", subject: "Hola", body: "Texto" }, { cookies }));
    const templateId = (await run(templatesPage.loader, getRequest("/organizacion/campanias-de-email/plantillas", { cookies }))).data.templates[0].id;
    const created = await run(campaignsPage.action, formRequest("/organizacion/campanias-de-email", { intent: "create", name: "Mía", templateId, audience: "org" }, { cookies }));
    const campaignId = new URL(created.location!, "http://x").searchParams.get("campania")!;
    const [logged] = await (await getDb()).select().from(emailLog).where(eq(emailLog.to, buyer));

    const stranger = await createEventWithTickets();
    const other = await sessionCookiesFor(stranger.user.id);
    expect((await run(campaignsPage.loader, getRequest(`/organizacion/campanias-de-email?campania=${campaignId}`, { cookies: other }))).status).toBe(403);
    expect((await run(campaignsPage.action, formRequest("/organizacion/campanias-de-email", { intent: "send", campaignId }, { cookies: other }))).status).toBe(403);
    expect((await run(editorPage.loader, getRequest(`/organizacion/campanias-de-email/plantillas/crear?plantilla=${templateId}`, { cookies: other }))).status).toBe(403);
    expect((await run(templatesPage.action, formRequest("/organizacion/campanias-de-email/plantillas", { intent: "delete", templateId }, { cookies: other }))).status).toBe(403);
    expect((await run(emailLogPage.loader, getRequest(`/organizacion/log-emails?correo=${logged.id}`, { cookies: other }))).status).toBe(403);
    expect((await run(emailLogPage.action, formRequest("/organizacion/log-emails", { intent: "resend", emailId: logged.id }, { cookies: other }))).status).toBe(403);
    const list = await run(emailLogPage.loader, getRequest("/organizacion/log-emails", { cookies: other }));
    expect(list.data.emails.find((e: { to: string }) => e.to === buyer)).toBeUndefined();
    const [campaign] = await (await getDb()).select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(campaign.status).toBe("draft");
  });
});
