import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { markdownToHtml } from "./render";
import { createTemplate, deleteTemplate, getTemplate, previewTemplate, renderCampaignEmail, sendTestEmail, templateValues, updateTemplate } from "./templates";
import { isUnsubscribed, readUnsubscribeToken, unsubscribe, unsubscribeStatus, unsubscribeToken, UNSUBSCRIBE_MESSAGES } from "./unsubscribe";

describe("templates", () => {
  it("refuse unknown variables in Spanish, next to the field", async () => {
    const { ctx, organization } = await createProducer();
    await expect(createTemplate(ctx, { organizationId: organization.id, name: "X", subject: "Hola {{nombre}}", body: "Vení a {{eventos}} con {{amigo}}" })).rejects.toMatchObject({
      fieldErrors: { body: ["No conocemos las variables {{eventos}}, {{amigo}}. Podés usar: {{nombre}}, {{evento}}, {{fecha}}, {{lugar}}, {{link_evento}}, {{organizacion}}."] },
    });
    await expect(createTemplate(ctx, { organizationId: organization.id, name: "", subject: "", body: "" })).rejects.toMatchObject({
      fieldErrors: { name: ["Poné un nombre para reconocerla."], subject: ["Escribí el asunto."], body: ["Escribí el texto del correo."] },
    });
  });

  it("escape everything: a <script> in the template or in a buyer's name comes out as text, only the Markdown marks become tags", async () => {
    const html = markdownToHtml('<script>alert(1)</script> **fuerte** *suave* [entradas](https://tribuna.com.ar/x?a=1&b="2") [malo](javascript:alert(1))\n\n- uno\n- dos');
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<strong>fuerte</strong>");
    expect(html).toContain("<em>suave</em>");
    expect(html).toContain('<a href="https://tribuna.com.ar/x?a=1&amp;b=&quot;2&quot;"');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain("<ul");
    expect(html).toContain("<li>uno</li>");

    const email = renderCampaignEmail(
      { subject: "Hola {{nombre}}", body: "Hola **{{nombre}}**, [comprá]({{link_evento}})" },
      templateValues({ firstName: '<img src=x onerror="alert(1)">', organizationName: "La <b>Productora</b>", event: { name: "Noche & Día", slug: "noche", venueName: "Club", nextStartsAt: null } }),
      "http://localhost:3000/correos/baja/t",
    );
    expect(email.html).not.toContain("<img src=x");
    expect(email.html).toContain("<strong>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</strong>");
    expect(email.html).not.toContain("<b>Productora</b>");
    expect(email.html).toContain('<a href="http://localhost:3000/eventos/noche"');
    expect(email.subject).toBe('Hola <img src=x onerror="alert(1)">');
  });

  it("preview fills sample values; the test email goes only to the signed-in person, with the unsubscribe headers", async () => {
    const made = await createEventWithTickets();
    const input = { organizationId: made.organization.id, subject: "{{evento}} se acerca", body: "Hola {{nombre}}, nos vemos en {{lugar}} el {{fecha}}.", eventId: made.event.id };
    const preview = await previewTemplate(made.ctx, input);
    expect(preview.subject).toBe(`${made.event.name} se acerca`);
    expect(preview.html).toContain("Hola Sofía, nos vemos en Club Atlético Fernández Fierro el");
    expect(preview.html).toMatch(/ de \d{4} a las \d\d:\d\d\./);
    const { to } = await sendTestEmail(made.ctx, input);
    expect(to).toBe(made.user.email.toLowerCase());
    const [sent] = await emailsTo(to, "campaign-test");
    expect(sent.subject).toBe(`[Prueba] ${made.event.name} se acerca`);
    expect(sent.organizationId).toBe(made.organization.id);
    expect(sent.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("CRUD, only within the organization and only for owners, admins and marketing", async () => {
    const { ctx, organization } = await createProducer();
    const tpl = await createTemplate(ctx, { organizationId: organization.id, name: "Base", subject: "Hola", body: "Texto" });
    const updated = await updateTemplate(ctx, { id: tpl.id, name: "Base 2", subject: "Hola {{nombre}}", body: "Otro" });
    expect(updated).toMatchObject({ name: "Base 2", subject: "Hola {{nombre}}", body: "Otro" });
    const stranger = await createProducer();
    await expect(getTemplate(stranger.ctx, tpl.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updateTemplate(stranger.ctx, { id: tpl.id, name: "Mío", subject: "x", body: "y" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const operator = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: organization.id, userId: operator.id, role: "operator" });
    await expect(getTemplate(await ctxAs(actorFor({ ...operator, roles: [] })), tpl.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await deleteTemplate(ctx, tpl.id);
    await expect(getTemplate(ctx, tpl.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("unsubscribe tokens", () => {
  it("a forged or altered token is refused; a real one unsubscribes that email from that organization only", async () => {
    const { organization } = await createProducer();
    const other = await createProducer();
    const db = await getDb();
    const token = unsubscribeToken(organization.id, "Ana@Example.com");
    expect(readUnsubscribeToken(token)).toEqual({ organizationId: organization.id, email: "ana@example.com" });
    const forged = `${Buffer.from(`${organization.id}:otra@example.com`).toString("base64url")}.${token.split(".")[1]}`;
    expect(readUnsubscribeToken(forged)).toBeNull();
    expect(readUnsubscribeToken("cualquier-cosa")).toBeNull();
    await expect(unsubscribe(db, forged, { source: "page", now: new Date() })).rejects.toMatchObject({ code: "NOT_FOUND", message: UNSUBSCRIBE_MESSAGES.invalid });
    expect(await unsubscribeStatus(db, token)).toEqual({ organizationName: organization.name, email: "ana@example.com", unsubscribed: false });
    await unsubscribe(db, token, { source: "one-click", now: new Date() });
    expect(await isUnsubscribed(db, organization.id, "ANA@example.com")).toBe(true);
    expect(await isUnsubscribed(db, other.organization.id, "ana@example.com")).toBe(false);
  });
});
