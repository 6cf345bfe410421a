import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { billingAccessToken } from "#server/auth/billing-access";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { passSerialFor } from "#server/tickets/wallet-changes";
import { passAuthToken } from "#server/wallet/serial";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import { throwawayPassCertificates, unzip, verifyPassSignature } from "#tests/support/wallet";
import * as appleService from "./api.wallet.apple.$";
import * as myTickets from "./cuenta.mis-tickets";
import * as purchasePage from "./tickets.$billingId";
import * as applePass from "./tickets.$billingId.wallet.apple.$ticketId";
import * as googleSave from "./tickets.$billingId.wallet.google.$ticketId";

// Both wallets set up before anything reads the environment (server/env.ts reads it once).
const certs = throwawayPassCertificates();
process.env.APPLE_PASS_TEAM_ID = "ABCDE12345";
process.env.APPLE_PASS_TYPE_ID = "pass.ar.tribuna.test";
process.env.APPLE_PASS_SIGNER_CERT = certs.signerCert;
process.env.APPLE_PASS_SIGNER_KEY = certs.signerKey;
process.env.APPLE_PASS_SIGNER_KEY_PASSPHRASE = certs.passphrase;
process.env.APPLE_PASS_WWDR_CERT = certs.wwdr;
process.env.GOOGLE_WALLET_ISSUER_ID = "3388000000022212345";
process.env.GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL = "wallet@tribuna-test.iam.gserviceaccount.com";
process.env.GOOGLE_WALLET_PRIVATE_KEY = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();

async function purchase() {
  const { ctx, organization } = await createProducer();
  const { event } = await createPublishedEvent(ctx, organization.id, { name: "Fiesta de Prueba" });
  const db = await getDb();
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const buyer = await createTestUser();
  const { order, billing } = await createOrder(await ctxAs(actorFor({ ...buyer, roles: [] })), {
    eventSlug: event.slug,
    items: [{ ticketId: ticket.id, qty: 1 }],
    payer: { firstName: "Lucía", lastName: "Ríos", email: buyer.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  const [issued] = await ticketsOfOrder(db, order.id);
  const tokens = await startSession(db, { ...buyer, roles: [] }, new Date());
  return { billing, issued, buyer, cookies: { at: tokens.accessToken, rt: tokens.refreshToken } };
}

describe("wallet routes", () => {
  it("the purchase page and Mis tickets link each valid ticket to both wallets; the links hand out the pass and Google's save page", async () => {
    const { billing, issued, cookies } = await purchase();
    const token = billingAccessToken(billing.id);
    const page = await run(purchasePage.loader, getRequest(`/tickets/${billing.id}?t=${token}`), { billingId: billing.id });
    const links = page.data.wallet[issued.id];
    expect(links).toEqual({ apple: `/tickets/${billing.id}/wallet/apple/${issued.id}?t=${token}`, google: `/tickets/${billing.id}/wallet/google/${issued.id}?t=${token}` });
    const mine = await run(myTickets.loader, getRequest("/cuenta/mis-tickets", { cookies }));
    expect(mine.data.upcoming[0].wallet.apple).toContain(`/wallet/apple/${issued.id}`);

    const params = { billingId: billing.id, ticketId: issued.id };
    const response = (await applePass.loader({ request: getRequest(links.apple), params, context: {} })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/vnd.apple.pkpass");
    const files = unzip(Buffer.from(await response.arrayBuffer()));
    expect(() => verifyPassSignature(files, certs.wwdr)).not.toThrow();

    const google = await run(googleSave.loader, getRequest(links.google), params);
    expect(google.status).toBe(303);
    expect(google.location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);

    // Without the token nor a session: to sign in; another account: 404.
    expect((await run(applePass.loader, getRequest(`/tickets/${billing.id}/wallet/apple/${issued.id}`), params)).status).toBe(302);
    const stranger = await createTestUser();
    const session = await startSession(await getDb(), { ...stranger, roles: [] }, new Date());
    expect((await run(applePass.loader, getRequest(`/tickets/${billing.id}/wallet/apple/${issued.id}`, { cookies: { at: session.accessToken, rt: session.refreshToken } }), params)).status).toBe(404);
  });

  it("Apple's web service answers under /api/wallet/apple/v1 with the pass's token", async () => {
    const { issued } = await purchase();
    const serial = passSerialFor(issued);
    const path = `v1/passes/pass.ar.tribuna.test/${serial}`;
    const denied = (await appleService.loader({ request: getRequest(`/api/wallet/apple/${path}`), params: { "*": path }, context: {} })) as Response;
    expect(denied.status).toBe(401);
    const pass = (await appleService.loader({ request: getRequest(`/api/wallet/apple/${path}`, { headers: { Authorization: `ApplePass ${passAuthToken(serial)}` } }), params: { "*": path }, context: {} })) as Response;
    expect(pass.status).toBe(200);
    expect(pass.headers.get("Content-Type")).toBe("application/vnd.apple.pkpass");
  });
});
