import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { emailLog, memberships, ticketTypes } from "#server/db/schema";
import { billingAccessToken } from "#server/auth/billing-access";
import { acceptInvitation, sendMembershipInvitation } from "#server/team/team";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { sendTicketsEmail, TICKETS_EMAIL_KIND } from "#server/tickets/email";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { getLoggedEmail, isSecretLink, redactSecretLinks, REDACTED_LINK, resendEmail } from "./email-log";

const PAYER = { firstName: "Ana", lastName: "Gómez", email: "ana.log@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** An organization with a paid purchase whose tickets email went out, and a marketing member. */
async function organizationWithTicketsEmail() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 50 }] });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  await sendTicketsEmail(db, order.id);
  const [logged] = await db
    .select()
    .from(emailLog)
    .where(and(eq(emailLog.organizationId, producer.organization.id), eq(emailLog.kind, TICKETS_EMAIL_KIND)))
    .orderBy(desc(emailLog.createdAt));
  const marketer = await createTestUser();
  await db.insert(memberships).values({ organizationId: producer.organization.id, userId: marketer.id, role: "marketing" });
  const marketing = await ctxAs(actorFor({ ...marketer, roles: [] }));
  return { ...producer, db, order, billing, logged, marketer, marketing };
}

describe("the email log does not hand out links that carry secrets", () => {
  it("marketing reading a tickets email gets no purchase link with its token, in HTML or text; the owner neither; resend still sends the working link to the buyer", async () => {
    const made = await organizationWithTicketsEmail();
    const token = billingAccessToken(made.billing.id);
    // What went to the buyer has the link (the test would prove nothing otherwise).
    expect(made.logged.html).toContain(`?t=${token}`);
    expect(made.logged.text).toContain(`?t=${token}`);

    for (const ctx of [made.marketing, made.ctx]) {
      const shown = await getLoggedEmail(ctx, made.logged.id);
      for (const part of [shown.html, shown.text]) {
        expect(part).not.toContain(token);
        expect(part).not.toMatch(/[?&](amp;)?t=/);
        expect(part).toContain(REDACTED_LINK);
      }
      expect(shown.html).not.toMatch(new RegExp(`href="[^"]*${made.billing.id}`));
      // Still the email it was: subject, holder names, order code.
      expect(shown.subject).toContain(made.order.code);
      expect(shown.text).toContain("Ana Gómez");
      // Attachments are named, never offered (no content).
      expect(shown.attachments.map((a) => Object.keys(a).sort())).toEqual(shown.attachments.map(() => ["filename", "size"]));
    }

    const resent = await resendEmail(made.marketing, made.logged.id);
    const [copy] = await made.db.select().from(emailLog).where(eq(emailLog.id, resent.id));
    expect(copy.to).toBe(PAYER.email);
    expect(copy.html).toContain(`?t=${token}`);
    expect((await getLoggedEmail(made.marketing, copy.id)).html).not.toContain(token);
  });

  it("a team invitation in the log cannot be accepted by whoever reads it", async () => {
    const made = await organizationWithTicketsEmail();
    const { link } = await sendMembershipInvitation(made.ctx, { organizationId: made.organization.id, email: "nueva.admin@example.com", role: "admin", promoterGroupId: null });
    const [invitation] = await made.db
      .select()
      .from(emailLog)
      .where(and(eq(emailLog.organizationId, made.organization.id), eq(emailLog.to, "nueva.admin@example.com")));
    expect(invitation.html).toContain(link);
    const shown = await getLoggedEmail(made.marketing, invitation.id);
    const token = link.split("/").at(-1)!;
    expect(shown.html).not.toContain(token);
    expect(shown.text).not.toContain(token);
    expect(shown.text).toContain(REDACTED_LINK);
    // The real link still works for its recipient: the log showed nothing usable, the invitation is intact.
    const invited = await createTestUser({ email: "nueva.admin@example.com" });
    await acceptInvitation(await ctxAs(actorFor({ ...invited, roles: [] })), token);
    const [role] = await made.db.select({ role: memberships.role }).from(memberships).where(and(eq(memberships.organizationId, made.organization.id), eq(memberships.userId, invited.id)));
    expect(role?.role).toBe("admin");
  });

  it("which links count as secret", () => {
    for (const link of [
      "https://tribuna.ar/tickets/0b7e3c1e-4f1a-4c7e-9a39-2f0d6d1f8a11?t=abc",
      "https://tribuna.ar/checkout/status/approved?billingId=x&amp;t=abc",
      "/tickets/x/pdf?t=abc",
      "https://tribuna.ar/cuenta/enlace?token=abc",
      "https://tribuna.ar/organizacion/operadores/aceptar/abcdefghijklmnopqrstuv",
      "https://tribuna.ar/correos/baja/abc.def",
    ]) {
      expect(isSecretLink(link), link).toBe(true);
    }
    for (const link of ["https://tribuna.ar/eventos/noche-de-cumbia", "https://tribuna.ar/cuenta/devoluciones?gestion=DEV-1", "https://tribuna.ar/?utm_source=mail"]) {
      expect(isSecretLink(link), link).toBe(false);
    }
    expect(redactSecretLinks(`<a href='https://x.ar/tickets/1?t=a'>Ver</a> https://x.ar/tickets/1?t=a. https://x.ar/eventos/e`)).toBe(`<a href='#'>Ver</a> ${REDACTED_LINK} https://x.ar/eventos/e`);
  });
});
