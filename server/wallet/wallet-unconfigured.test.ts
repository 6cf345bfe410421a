import { and, eq, sql } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { jobs, ticketTypes } from "#server/db/schema";
import { updateEvent } from "#server/events/events";
import { runDueJobs } from "#server/jobs/queue";
import { createOrder } from "#server/orders/orders";
import { updateOrganization } from "#server/organizations/organizations";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { SEND_TICKETS_EMAIL_JOB } from "#server/tickets/issue";
import { WALLET_EVENT_CHANGED_JOB } from "#server/tickets/wallet-changes";
import { jobHandlers } from "#server/worker/handlers";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { emailsTo } from "#tests/support/mailbox";
import { handleAppleWebServiceRequest } from "./apple-service";
import { runWalletEventChanged } from "./changes";
import { googleWalletConfig } from "./config";

// No wallet set up (another test file of the same process may have set them): nothing reads the environment yet.
for (const name of Object.keys(process.env)) if (name.startsWith("APPLE_PASS_") || name.startsWith("GOOGLE_WALLET_")) delete process.env[name];

// Any call to Google would fail the test.
const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: "error" }));
afterAll(() => msw.close());

describe("without wallet credentials", () => {
  it("the tickets email has no wallet link; an event edit queues no Google job; Apple's web service is not there", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id);
    const db = await getDb();
    const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const user = await createTestUser();
    const { billing } = await createOrder(await ctxAs(actorFor({ ...user, roles: [] })), {
      eventSlug: event.slug,
      items: [{ ticketId: general.id, qty: 2 }],
      payer: { firstName: "Sofía", lastName: "Peña", email: user.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(db, billing.id, "approved");
    const run = await runDueJobs(db, { [SEND_TICKETS_EMAIL_JOB]: jobHandlers[SEND_TICKETS_EMAIL_JOB] }, new Date(Date.now() + 1000), 100, { kinds: [SEND_TICKETS_EMAIL_JOB] });
    expect(run.failed).toBe(0);
    const [email] = await emailsTo(user.email, "tickets");
    expect(email.html).toContain("Entrada 2 de 2");
    expect(email.html).not.toMatch(/Apple Wallet|Google Wallet|\/wallet\//);
    expect(email.text).not.toMatch(/Apple Wallet|Google Wallet|\/wallet\//);

    await updateEvent(producer.ctx, {
      id: event.id,
      name: "Otro nombre",
      description: event.description,
      category: event.category,
      minAge: event.minAge,
      venueName: "Otro lugar",
      venueAddress: event.venueAddress,
      city: event.city,
      province: event.province,
      venueLatitude: -34.6,
      venueLongitude: -58.4,
    });
    await updateOrganization(producer.ctx, {
      id: producer.organization.id,
      name: producer.organization.name,
      slug: producer.organization.slug,
      cuit: producer.organization.cuit ?? "",
      contactEmail: producer.organization.contactEmail ?? "",
      passBackgroundColor: "#000000",
      passTextColor: "#ffffff",
    });
    expect(await db.select().from(jobs).where(and(eq(jobs.kind, WALLET_EVENT_CHANGED_JOB), sql`${jobs.payload}->>'eventId' = ${event.id}`))).toHaveLength(0);
    // A job left from when Google was set up does nothing now.
    expect(googleWalletConfig()).toBeNull();
    await expect(runWalletEventChanged(db, event.id, googleWalletConfig())).resolves.toBeUndefined();

    const response = await handleAppleWebServiceRequest(new Request("http://localhost:3000/api/wallet/apple/v1/log", { method: "POST", body: "{}" }), "v1/log");
    expect(response.status).toBe(404);
  });
});
