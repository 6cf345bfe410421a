import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { jwtVerify, importSPKI } from "jose";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { qrPayloadFor } from "#server/tickets/qr";
import { NotFound } from "#server/errors";
import { issuedProducts, jobs, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { refund } from "#server/orders/lifecycle";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { transferTicket } from "#server/tickets/transfer";
import { passSerialFor, WALLET_PASSES_CHANGED_JOB } from "#server/tickets/wallet-changes";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { throwawayPassCertificates, unzip, verifyPassSignature } from "#tests/support/wallet";
import { appleWebService } from "./apple-service";
import { applePassForBuyer, googleSaveUrlForBuyer, walletLinksFor } from "./buyer";
import { appleWalletConfig, googleWalletConfig } from "./config";
import { runWalletPassesChanged, runWalletPassReveal, WALLET_PASS_REVEAL_JOB, type ApnsSender } from "./changes";
import { buildApplePass } from "./apple-pass";
import { walletPassOfSerial } from "./pass-data";
import { hexToBytes, hotp, liveCodeAt, liveStepAt, liveTicketSecret, ticketRefOf, verifyLiveCode } from "#common/live-qr";
import { liveQrKey, setEventLiveQr } from "#server/door/live-qr";
import { GOOGLE_WALLET_API } from "./google";
import { passAuthToken } from "./serial";

// Both wallets set up, as an operator would, before anything reads the environment.
const certs = throwawayPassCertificates();
const google = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
process.env.APPLE_PASS_TEAM_ID = "ABCDE12345";
process.env.APPLE_PASS_TYPE_ID = "pass.ar.tribuna.test";
process.env.APPLE_PASS_SIGNER_CERT = certs.signerCert.replace(/\n/g, "\\n");
process.env.APPLE_PASS_SIGNER_KEY = certs.signerKey;
process.env.APPLE_PASS_SIGNER_KEY_PASSPHRASE = certs.passphrase;
process.env.APPLE_PASS_WWDR_CERT = certs.wwdr;
process.env.GOOGLE_WALLET_ISSUER_ID = "3388000000022212345";
process.env.GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL = "wallet@tribuna-test.iam.gserviceaccount.com";
process.env.GOOGLE_WALLET_PRIVATE_KEY = google.privateKey.export({ type: "pkcs8", format: "pem" }).toString();

const patched: { id: string; body: unknown; auth: string | null }[] = [];
const msw = setupServer(
  http.post("https://oauth2.googleapis.com/token", () => HttpResponse.json({ access_token: "ya29.prueba-wallet", expires_in: 3599, token_type: "Bearer" })),
  http.patch(`${GOOGLE_WALLET_API}/eventTicketObject/:id`, async ({ request, params }) => {
    patched.push({ id: decodeURIComponent(String(params.id)), body: await request.json(), auth: request.headers.get("Authorization") });
    return HttpResponse.json({ id: params.id, state: "INACTIVE" });
  }),
);
beforeAll(() => msw.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  msw.resetHandlers();
  patched.length = 0;
});
afterAll(() => msw.close());

async function bought(options: { liveQr?: boolean } = {}) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "Campo", price: 1_000_000, stock: 100 }] });
  const db = await getDb();
  const [campo] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  if (options.liveQr) await setEventLiveQr(producer.ctx, { eventId: event.id, enabled: true, staticCodeRevealHours: 2 });
  const user = await createTestUser();
  const ctx = await ctxAs(actorFor({ ...user, roles: [] }));
  const { order, billing } = await createOrder(ctx, {
    eventSlug: event.slug,
    items: [{ ticketId: campo.id, qty: 2 }],
    payer: { firstName: "Sofía", lastName: "Peña", email: user.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  const tickets = await ticketsOfOrder(db, order.id);
  return { db, ctx, event, order, billing, tickets };
}

const config = () => appleWalletConfig()!;
const base = "http://localhost:3000/api/wallet/apple";
function call(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `ApplePass ${options.token}`);
  if (options.body) headers.set("Content-Type", "application/json");
  const request = new Request(`${base}${path}`, { method, headers, body: options.body ? JSON.stringify(options.body) : undefined });
  return getDb().then((db) => appleWebService(db, config(), request, new URL(request.url).pathname.slice("/api/wallet/apple".length)));
}

describe("wallet passes", () => {
  it("reads the configuration from the environment, PEM with written-out line breaks included", () => {
    expect(config()).toMatchObject({ teamId: "ABCDE12345", passTypeId: "pass.ar.tribuna.test" });
    expect(config().signerCert).toBe(certs.signerCert);
    expect(googleWalletConfig()).toMatchObject({ issuerId: "3388000000022212345" });
  });

  it("the buyer downloads a signed pass of their ticket; a stranger cannot", async () => {
    const { ctx, billing, tickets } = await bought();
    const pass = await applePassForBuyer(ctx, { billingId: billing.id, ticketId: tickets[0].id, token: null });
    const files = unzip(pass.body);
    expect(() => verifyPassSignature(files, certs.wwdr)).not.toThrow();
    expect(JSON.parse(files.get("pass.json")!.toString("utf8"))).toMatchObject({ serialNumber: passSerialFor(tickets[0]), eventTicket: expect.any(Object) });
    expect(pass.filename).toMatch(/\.pkpass$/);

    const stranger = await ctxAs(actorFor({ ...(await createTestUser()), roles: [] }));
    await expect(applePassForBuyer(stranger, { billingId: billing.id, ticketId: tickets[0].id, token: null })).rejects.toBeInstanceOf(NotFound);
    expect(walletLinksFor(`/tickets/${billing.id}?t=abc`, { id: tickets[0].id, qrPayload: "x", status: "redeemable" })).toEqual({
      apple: `/tickets/${billing.id}/wallet/apple/${tickets[0].id}?t=abc`,
      google: `/tickets/${billing.id}/wallet/google/${tickets[0].id}?t=abc`,
    });
  });

  it("web service: registering needs the pass's token; a void lists the serial as updated, pushes once and serves the pass voided", async () => {
    const { db, ctx, billing, tickets } = await bought();
    const serial = passSerialFor(tickets[0]);
    const other = passSerialFor(tickets[1]);
    const device = `device-${crypto.randomUUID()}`;
    const register = (s: string, token?: string) => call("POST", `/v1/devices/${device}/registrations/pass.ar.tribuna.test/${s}`, { token, body: { pushToken: `push-${device}` } });

    expect((await register(serial)).status).toBe(401);
    expect((await register(serial, passAuthToken(other))).status).toBe(401);
    expect((await register(serial, passAuthToken(serial))).status).toBe(201);
    expect((await register(serial, passAuthToken(serial))).status).toBe(200);
    expect((await register(other, passAuthToken(other))).status).toBe(201);

    const list = await call("GET", `/v1/devices/${device}/registrations/pass.ar.tribuna.test`);
    const first = (await list.json()) as { serialNumbers: string[]; lastUpdated: string };
    expect(first.serialNumbers.sort()).toEqual([serial, other].sort());
    expect((await call("GET", `/v1/devices/${device}/registrations/pass.ar.tribuna.test?passesUpdatedSince=${first.lastUpdated}`)).status).toBe(204);

    expect((await call("GET", `/v1/passes/pass.ar.tribuna.test/${serial}`)).status).toBe(401);
    const before = JSON.parse(unzip(Buffer.from(await (await call("GET", `/v1/passes/pass.ar.tribuna.test/${serial}`, { token: passAuthToken(serial) })).arrayBuffer())).get("pass.json")!.toString("utf8")) as { voided?: boolean; barcodes?: unknown[] };
    expect(before.voided).toBeFalsy();
    expect(before.barcodes).toHaveLength(1);

    // The refund voids both tickets: both serials move past the tag, and one job is queued for them.
    const now = new Date();
    await db.transaction((tx) => refund(tx, billing.id, { reason: "Prueba", now, providerRefund: "none" }));
    // A voided ticket is no longer downloadable.
    await expect(applePassForBuyer(ctx, { billingId: billing.id, ticketId: tickets[0].id, token: null })).rejects.toBeInstanceOf(NotFound);
    const updated = (await (await call("GET", `/v1/devices/${device}/registrations/pass.ar.tribuna.test?passesUpdatedSince=${first.lastUpdated}`)).json()) as { serialNumbers: string[]; lastUpdated: string };
    expect(updated.serialNumbers.sort()).toEqual([serial, other].sort());
    expect(BigInt(updated.lastUpdated)).toBeGreaterThan(BigInt(first.lastUpdated));
    expect((await call("GET", `/v1/devices/${device}/registrations/pass.ar.tribuna.test?passesUpdatedSince=${updated.lastUpdated}`)).status).toBe(204);

    const queued = (await db.select().from(jobs).where(eq(jobs.kind, WALLET_PASSES_CHANGED_JOB))).filter((j) => (j.payload as { serials: string[] }).serials.includes(serial));
    expect(queued).toHaveLength(1);
    const pushes: string[] = [];
    const apns: ApnsSender = {
      push: async (token, topic) => {
        pushes.push(`${token}@${topic}`);
        return "sent";
      },
    };
    await runWalletPassesChanged(db, (queued[0].payload as { serials: string[] }).serials, { apple: config(), apns, google: null });
    expect(pushes).toEqual([`push-${device}@pass.ar.tribuna.test`]);
    // A token APNs no longer knows (the pass was deleted from the phone): its registrations go.
    await runWalletPassesChanged(db, [other], { apple: config(), apns: { push: async () => "gone" }, google: null });
    expect((await call("GET", `/v1/devices/${device}/registrations/pass.ar.tribuna.test`)).status).toBe(204);

    const after = JSON.parse(unzip(Buffer.from(await (await call("GET", `/v1/passes/pass.ar.tribuna.test/${serial}`, { token: passAuthToken(serial) })).arrayBuffer())).get("pass.json")!.toString("utf8")) as { voided?: boolean; barcodes?: unknown[] };
    expect(after.voided).toBe(true);
    expect(after.barcodes ?? []).toEqual([]);

    expect((await register(serial, passAuthToken(serial))).status).toBe(201);
    expect((await call("DELETE", `/v1/devices/${device}/registrations/pass.ar.tribuna.test/${serial}`)).status).toBe(401);
    expect((await call("DELETE", `/v1/devices/${device}/registrations/pass.ar.tribuna.test/${serial}`, { token: passAuthToken(serial) })).status).toBe(200);
    expect((await call("GET", `/v1/devices/${device}/registrations/pass.ar.tribuna.test`)).status).toBe(204);
    expect((await call("POST", "/v1/log", { body: { logs: ["Prueba de registro"] } })).status).toBe(200);
  });

  it("a ticket sent to someone else: the sender's pass is served voided, never as the new holder's", async () => {
    const { db, ctx, tickets } = await bought();
    const serial = passSerialFor(tickets[0]);
    await transferTicket(ctx, { ticketId: tickets[0].id, firstName: "Lucía", lastName: "Gómez", email: `lucia.${crypto.randomUUID().slice(0, 6)}@example.com` });
    const [now] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, tickets[0].id));
    expect(passSerialFor(now)).not.toBe(serial);
    const pass = JSON.parse(unzip(Buffer.from(await (await call("GET", `/v1/passes/pass.ar.tribuna.test/${serial}`, { token: passAuthToken(serial) })).arrayBuffer())).get("pass.json")!.toString("utf8")) as { voided?: boolean; barcodes?: unknown[] };
    expect(pass.voided).toBe(true);
    expect(pass.barcodes ?? []).toEqual([]);
  });

  it("Google: the save link's JWT verifies with the service account's public key and carries the event's class and the ticket's object", async () => {
    const { ctx, billing, event, tickets } = await bought();
    const url = await googleSaveUrlForBuyer(ctx, { billingId: billing.id, ticketId: tickets[0].id, token: null });
    expect(url).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const jwt = url.split("/").pop()!;
    const key = await importSPKI(google.publicKey.export({ type: "spki", format: "pem" }).toString(), "RS256");
    const { payload, protectedHeader } = await jwtVerify(jwt, key, { issuer: "wallet@tribuna-test.iam.gserviceaccount.com", audience: "google" });
    expect(protectedHeader.alg).toBe("RS256");
    const body = payload as unknown as { typ: string; payload: { eventTicketClasses: { id: string; eventName: { defaultValue: { value: string } } }[]; eventTicketObjects: { id: string; classId: string; state: string; barcode: { value: string } }[] } };
    expect(body.typ).toBe("savetowallet");
    expect(body.payload.eventTicketClasses[0]).toMatchObject({ id: `3388000000022212345.event-${event.id}`, eventName: { defaultValue: { value: event.name } } });
    expect(body.payload.eventTicketObjects[0]).toMatchObject({ id: `3388000000022212345.${passSerialFor(tickets[0])}`, classId: `3388000000022212345.event-${event.id}`, state: "ACTIVE" });
    expect(body.payload.eventTicketObjects[0].barcode.value).toMatch(/^TRB1\./);
    // Another key does not verify it.
    const stranger = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString();
    await expect(jwtVerify(jwt, await importSPKI(stranger, "RS256"))).rejects.toThrow();
  });

  it("Google: voiding one ticket's order sets each object INACTIVE exactly once, with the service account's token", async () => {
    const { db, billing, tickets } = await bought();
    await db.transaction((tx) => refund(tx, billing.id, { reason: "Prueba", now: new Date(), providerRefund: "none" }));
    const serials = tickets.map(passSerialFor);
    const [job] = (await db.select().from(jobs).where(eq(jobs.kind, WALLET_PASSES_CHANGED_JOB))).filter((j) => (j.payload as { serials: string[] }).serials.includes(serials[0]));
    await runWalletPassesChanged(db, (job.payload as { serials: string[] }).serials, { apple: config(), apns: null, google: googleWalletConfig() });
    expect(patched.map((p) => p.id).sort()).toEqual(serials.map((s) => `3388000000022212345.${s}`).sort());
    expect(patched.every((p) => p.auth === "Bearer ya29.prueba-wallet" && (p.body as { state: string }).state === "INACTIVE")).toBe(true);
  });

  it("live QR: Google's pass rotates the very code the door accepts; Apple's shows no QR until the reveal, and the reveal job brings it", async () => {
    const { db, ctx, billing, event, tickets } = await bought({ liveQr: true });
    const now = new Date();

    const jwt = (await googleSaveUrlForBuyer(ctx, { billingId: billing.id, ticketId: tickets[0].id, token: null })).split("/").pop()!;
    const { payload } = await jwtVerify(jwt, await importSPKI(google.publicKey.export({ type: "spki", format: "pem" }).toString(), "RS256"));
    const object = (payload as unknown as { payload: { eventTicketObjects: Record<string, unknown>[] } }).payload.eventTicketObjects[0] as {
      barcode?: unknown;
      rotatingBarcode: { valuePattern: string; totpDetails: { periodMillis: string; algorithm: string; parameters: { key: string; valueLength: number }[] } };
    };
    // No static code travels in a live-QR pass.
    expect(object.barcode).toBeUndefined();
    expect(JSON.stringify(object)).not.toContain(tickets[0].code);
    expect(object.rotatingBarcode.totpDetails).toMatchObject({ periodMillis: "15000", algorithm: "TOTP_SHA1" });
    // What Google's phone computes (RFC 6238 with the key and the pattern it was given) equals the ticket page's code and verifies at the door.
    const { key, valueLength } = object.rotatingBarcode.totpDetails.parameters[0];
    const googleCode = object.rotatingBarcode.valuePattern.replace("{totp_value_0}", await hotp(hexToBytes(key), liveStepAt(now), valueLength));
    const secret = await liveTicketSecret(await liveQrKey(db, event.id), tickets[0].id);
    expect(googleCode).toBe(await liveCodeAt(secret, ticketRefOf(tickets[0].id)!, now));
    expect((await verifyLiveCode(secret, googleCode, now)).valid).toBe(true);

    // Apple: the pass has no QR yet and says when it appears.
    const serial = passSerialFor(tickets[0]);
    const early = JSON.parse(unzip(Buffer.from(await (await call("GET", `/v1/passes/pass.ar.tribuna.test/${serial}`, { token: passAuthToken(serial) })).arrayBuffer())).get("pass.json")!.toString("utf8")) as {
      barcodes?: unknown[];
      eventTicket: { backFields: { key: string; value: string }[] };
    };
    expect(early.barcodes ?? []).toEqual([]);
    expect(early.eventTicket.backFields.find((f) => f.key === "reveal")?.value).toMatch(/^Este evento usa QR dinámico\. El QR aparece acá el /);

    // Registering the pass schedules one push at the reveal time.
    const device = `device-${crypto.randomUUID()}`;
    expect((await call("POST", `/v1/devices/${device}/registrations/pass.ar.tribuna.test/${serial}`, { token: passAuthToken(serial), body: { pushToken: `push-${device}` } })).status).toBe(201);
    const data = (await walletPassOfSerial(db, tickets[0].id, serial))!;
    const [reveal] = (await db.select().from(jobs).where(eq(jobs.kind, WALLET_PASS_REVEAL_JOB))).filter((j) => (j.payload as { serials: string[] }).serials.includes(serial));
    expect(reveal.runAt.getTime()).toBe(data.live!.staticFrom.getTime());
    const first = (await (await call("GET", `/v1/devices/${device}/registrations/pass.ar.tribuna.test`)).json()) as { lastUpdated: string };

    const pushes: string[] = [];
    const later = new Date(data.live!.staticFrom.getTime() + 1000);
    await runWalletPassReveal(db, [serial], { apple: config(), apns: { push: async (token) => (pushes.push(token), "sent") } }, later);
    expect(pushes).toEqual([`push-${device}`]);
    const listed = (await (await call("GET", `/v1/devices/${device}/registrations/pass.ar.tribuna.test?passesUpdatedSince=${first.lastUpdated}`)).json()) as { serialNumbers: string[] };
    expect(listed.serialNumbers).toEqual([serial]);
    // From then, the pass carries the static code (which the door admits from that same time).
    const revealed = JSON.parse(unzip(await buildApplePass(config(), data, later)).get("pass.json")!.toString("utf8")) as { barcodes: { message: string }[] };
    expect(revealed.barcodes[0].message).toBe(qrPayloadFor(tickets[0].code));
    expect(patched).toEqual([]);
  });
});

describe("wallet passes of a seated ticket (docs/seating.md)", () => {
  it("the pass data read from the ticket carries its seat; a general-admission ticket's has none", async () => {
    const { createSeatedEvent, buyPaid } = await import("#tests/support/seating");
    const made = await createSeatedEvent();
    const seated = await buyPaid(made, { seats: ["F13"] });
    const general = await buyPaid(made, { general: 1 });
    const db = await getDb();
    expect((await walletPassOfSerial(db, seated.tickets[0].id))?.ticket.seat).toEqual({ section: "Platea", row: "F", number: "13", label: "Platea · Fila F · Asiento 13" });
    expect((await walletPassOfSerial(db, general.tickets[0].id))?.ticket.seat).toBeNull();
  }, 60_000);
});
