import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { REDACTED_LINK } from "#server/campaigns/email-log";
import { getDb } from "#server/db/client";
import { emailLog, memberships, ticketTypes } from "#server/db/schema";
import { billingAccessToken } from "#server/auth/billing-access";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { sendTicketsEmail, TICKETS_EMAIL_KIND } from "#server/tickets/email";
import { createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { gql } from "#tests/support/graphql";

const LOGGED_EMAIL = `query LoggedEmail($id: ID!) { loggedEmail(id: $id) { id kind subject html text } }`;

describe("the email log over GraphQL", () => {
  it("marketing (and the owner) reading a tickets email get no purchase link with its ?t= token", async () => {
    const producer = await createProducer();
    const db = await getDb();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "General", price: 1_000_000, stock: 20 }] });
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const payer = { firstName: "Ana", lastName: "Gómez", email: "ana.gql@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: ticket.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" });
    await payInSandbox(db, billing.id, "approved");
    await sendTicketsEmail(db, order.id);
    const [logged] = await db.select().from(emailLog).where(and(eq(emailLog.organizationId, producer.organization.id), eq(emailLog.kind, TICKETS_EMAIL_KIND)));
    const token = billingAccessToken(billing.id);
    expect(logged.text).toContain(`?t=${token}`);

    const marketer = await createTestUser();
    await db.insert(memberships).values({ organizationId: producer.organization.id, userId: marketer.id, role: "marketing" });
    for (const user of [marketer, producer.user]) {
      const tokens = await startSession(db, user, new Date());
      const read = await gql<{ loggedEmail: { kind: string; subject: string; html: string; text: string } }>(LOGGED_EMAIL, { tokens, variables: { id: logged.id } });
      expect(read.body.errors).toBeUndefined();
      const email = read.body.data!.loggedEmail;
      expect(email).toMatchObject({ kind: TICKETS_EMAIL_KIND, subject: logged.subject });
      expect(JSON.stringify(read.body)).not.toContain(token);
      expect(email.html).not.toMatch(/[?&](amp;)?t=/);
      expect(email.text).not.toMatch(/[?&]t=/);
      expect(email.text).toContain(REDACTED_LINK);
    }
  });
});
