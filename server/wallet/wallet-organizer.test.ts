import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { decodeJwt } from "jose";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { drawnText } from "#tests/support/pdf-text";
import { formatEventDay, formatLongDay, formatTime } from "#common/dates";
import { staticCodeAdmittedFrom } from "#common/live-qr";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { emailAttachments, eventDates, jobs, ticketTypes } from "#server/db/schema";
import { setEventLiveQr } from "#server/door/live-qr";
import { Invalid } from "#server/errors";
import { saveEventSchedule } from "#server/events/schedule";
import { updateEvent } from "#server/events/events";
import { runDueJobs } from "#server/jobs/queue";
import { createOrder } from "#server/orders/orders";
import { updateOrganization } from "#server/organizations/organizations";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { SEND_TICKETS_EMAIL_JOB } from "#server/tickets/issue";
import { TICKET_TRANSFER_EMAIL_KIND } from "#server/tickets/transfer";
import { WALLET_EVENT_CHANGED_JOB } from "#server/tickets/wallet-changes";
import { jobHandlers } from "#server/worker/handlers";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { gql } from "#tests/support/graphql";
import { emailsTo } from "#tests/support/mailbox";
import { throwawayPassCertificates, unzip, verifyPassSignature } from "#tests/support/wallet";
import { applePassForBuyer, googleSaveUrlForBuyer } from "./buyer";
import { GOOGLE_WALLET_API } from "./google";

// Both wallets set up, as an operator would, before anything reads the environment (server/env.ts reads it once).
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

const classPatches: { id: string; body: Record<string, unknown>; auth: string | null }[] = [];
const msw = setupServer(
  http.post("https://oauth2.googleapis.com/token", () => HttpResponse.json({ access_token: "ya29.prueba-clase", expires_in: 3599, token_type: "Bearer" })),
  http.patch(`${GOOGLE_WALLET_API}/eventTicketClass/:id`, async ({ request, params }) => {
    classPatches.push({ id: decodeURIComponent(String(params.id)), body: (await request.json()) as Record<string, unknown>, auth: request.headers.get("Authorization") });
    return HttpResponse.json({ id: params.id });
  }),
);
beforeAll(() => msw.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  msw.resetHandlers();
  classPatches.length = 0;
});
afterAll(() => msw.close());

async function bought(options: { liveQr?: boolean; qty?: number } = {}) {
  const producer = await createProducer();
  const { event, date } = await createPublishedEvent(producer.ctx, producer.organization.id, { ticketTypes: [{ name: "Campo", price: 1_000_000, stock: 100 }] });
  const db = await getDb();
  const [campo] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  if (options.liveQr) await setEventLiveQr(producer.ctx, { eventId: event.id, enabled: true, staticCodeRevealHours: 2 });
  const user = await createTestUser();
  const ctx = await ctxAs(actorFor({ ...user, roles: [] }));
  const { order, billing } = await createOrder(ctx, {
    eventSlug: event.slug,
    items: [{ ticketId: campo.id, qty: options.qty ?? 2 }],
    payer: { firstName: "Sofía", lastName: "Peña", email: user.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(db, billing.id, "approved");
  const tickets = await ticketsOfOrder(db, order.id);
  return { db, ctx, producer, event, date, order, billing, tickets, user };
}

async function passJson(ctx: Awaited<ReturnType<typeof bought>>["ctx"], billingId: string, ticketId: string) {
  const pass = await applePassForBuyer(ctx, { billingId, ticketId, token: null });
  return JSON.parse(unzip(pass.body).get("pass.json")!.toString("utf8")) as Record<string, unknown>;
}

/** The organization's fields as they are, so an update changes only what the test says. */
function organizationInput(organization: Awaited<ReturnType<typeof createProducer>>["organization"]) {
  return { id: organization.id, name: organization.name, slug: organization.slug, cuit: organization.cuit ?? "", contactEmail: organization.contactEmail ?? "" };
}

function eventInput(event: Awaited<ReturnType<typeof bought>>["event"]) {
  return { id: event.id, name: event.name, description: event.description, category: event.category, minAge: event.minAge, venueName: event.venueName, venueAddress: event.venueAddress, city: event.city, province: event.province };
}

async function walletEventJobs(eventId: string) {
  const db = await getDb();
  return db.select().from(jobs).where(and(eq(jobs.kind, WALLET_EVENT_CHANGED_JOB), sql`${jobs.payload}->>'eventId' = ${eventId}`));
}

/** Runs the queued wallet-event jobs of one event through the worker's handler, as the worker would. */
async function runWalletEventJobs(eventId: string) {
  const db = await getDb();
  for (const row of await walletEventJobs(eventId)) {
    if (row.doneAt) continue;
    await jobHandlers[WALLET_EVENT_CHANGED_JOB](row.payload as Record<string, unknown>, { db, now: new Date(), row });
    await db.update(jobs).set({ doneAt: new Date() }).where(eq(jobs.id, row.id));
  }
}


async function sendTicketsEmailOf(orderId: string) {
  const db = await getDb();
  // Only this order's email job: the queue of the file's database holds other tests' jobs too.
  await runDueJobs(db, { [SEND_TICKETS_EMAIL_JOB]: jobHandlers[SEND_TICKETS_EMAIL_JOB] }, new Date(Date.now() + 1000), 100, { kinds: [SEND_TICKETS_EMAIL_JOB] });
  void orderId;
}

describe("the tickets email with the wallets set up", () => {
  it("has both wallet links under each ticket, on the purchase's signed link, and they work from a mail client with no session", async () => {
    const { billing, tickets, order, user } = await bought();
    await sendTicketsEmailOf(order.id);
    const [email] = await emailsTo(user.email, "tickets");
    expect(email).toBeDefined();
    const appleLinks = [...email.html.matchAll(/href="([^"]+\/wallet\/apple\/[^"]+)"[^>]*>Agregar a Apple Wallet</g)].map((m) => m[1].replaceAll("&amp;", "&"));
    const googleLinks = [...email.html.matchAll(/href="([^"]+\/wallet\/google\/[^"]+)"[^>]*>Guardar en Google Wallet</g)].map((m) => m[1].replaceAll("&amp;", "&"));
    expect(appleLinks).toHaveLength(2);
    expect(googleLinks).toHaveLength(2);
    for (const [i, ticket] of tickets.entries()) {
      expect(appleLinks[i]).toMatch(new RegExp(`^http://localhost:3000/tickets/${billing.id}/wallet/apple/${ticket.id}\\?t=[\\w-]+$`));
      expect(googleLinks[i]).toMatch(new RegExp(`^http://localhost:3000/tickets/${billing.id}/wallet/google/${ticket.id}\\?t=[\\w-]+$`));
      expect(email.text).toContain(`Agregar a Apple Wallet: ${appleLinks[i]}`);
      expect(email.text).toContain(`Guardar en Google Wallet: ${googleLinks[i]}`);
    }
    // Opened from the mail client: nobody signed in, only the link's token (app/routes/tickets.wallet.test.ts runs the routes themselves).
    const anonymous = await ctxAs();
    const token = new URL(appleLinks[1]).searchParams.get("t");
    const pass = await applePassForBuyer(anonymous, { billingId: billing.id, ticketId: tickets[1].id, token });
    expect(() => verifyPassSignature(unzip(pass.body), certs.wwdr)).not.toThrow();
    expect(await googleSaveUrlForBuyer(anonymous, { billingId: billing.id, ticketId: tickets[1].id, token: new URL(googleLinks[1]).searchParams.get("t") })).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\//);
    await expect(applePassForBuyer(anonymous, { billingId: billing.id, ticketId: tickets[1].id, token: null })).rejects.toThrow();
  });
});

describe("the organizer's colours on the passes", () => {
  it("are refused without AA contrast or alone; saved, they go into Apple's pass.json and Google's class", async () => {
    const { ctx, producer, billing, tickets, event } = await bought();
    const base = organizationInput(producer.organization);
    await expect(updateOrganization(producer.ctx, { ...base, passBackgroundColor: "#777777", passTextColor: "#888888" })).rejects.toMatchObject({
      fieldErrors: { passTextColor: [expect.stringMatching(/contraste es 1,\d\d:1/)] },
    });
    await expect(updateOrganization(producer.ctx, { ...base, passBackgroundColor: "#1a2b3c" })).rejects.toBeInstanceOf(Invalid);
    await expect(updateOrganization(producer.ctx, { ...base, passBackgroundColor: "azul", passTextColor: "#ffffff" })).rejects.toBeInstanceOf(Invalid);

    // Before: Tribuna's colours.
    expect(await passJson(ctx, billing.id, tickets[0].id)).toMatchObject({ backgroundColor: "rgb(15, 17, 21)" });

    const saved = await updateOrganization(producer.ctx, { ...base, passBackgroundColor: "#1A2B3C", passTextColor: "ffffff" });
    expect(saved).toMatchObject({ passBackgroundColor: "#1a2b3c", passTextColor: "#ffffff" });
    expect(await passJson(ctx, billing.id, tickets[0].id)).toMatchObject({ backgroundColor: "rgb(26, 43, 60)", foregroundColor: "rgb(255, 255, 255)", labelColor: "rgb(255, 255, 255)" });

    const url = await googleSaveUrlForBuyer(ctx, { billingId: billing.id, ticketId: tickets[0].id, token: null });
    const claims = decodeJwt(url.split("/").pop()!) as { payload: { eventTicketClasses: Record<string, unknown>[] } };
    expect(claims.payload.eventTicketClasses[0]).toMatchObject({ id: `3388000000022212345.event-${event.id}`, hexBackgroundColor: "#1a2b3c" });

    // The new colours reach passes already saved: one PATCH of the event's class.
    expect(await walletEventJobs(event.id)).toHaveLength(1);
    await runWalletEventJobs(event.id);
    expect(classPatches).toHaveLength(1);
    expect(classPatches[0]).toMatchObject({ id: `3388000000022212345.event-${event.id}`, auth: "Bearer ya29.prueba-clase", body: { hexBackgroundColor: "#1a2b3c" } });

    // The same colours again: nothing to tell Google.
    await updateOrganization(producer.ctx, { ...base, passBackgroundColor: "#1a2b3c", passTextColor: "#ffffff" });
    expect(await walletEventJobs(event.id)).toHaveLength(1);
  });

  it("GraphQL reads and sets them on the organization, with a typed error for a poor contrast", async () => {
    const { user, organization } = await createProducer();
    const tokens = await startSession(await getDb(), { ...user, roles: ["producer"] }, new Date());
    const mutation = `mutation($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { passBackgroundColor passTextColor } }`;
    const set = await gql<{ updateOrganization: { passBackgroundColor: string; passTextColor: string } }>(mutation, {
      variables: { input: { id: organization.id, passBackgroundColor: "#FFFFFF", passTextColor: "#0F766E" } },
      tokens,
    });
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data?.updateOrganization).toEqual({ passBackgroundColor: "#ffffff", passTextColor: "#0f766e" });
    const poor = await gql(mutation, { variables: { input: { id: organization.id, passTextColor: "#eeeeee" } }, tokens });
    expect(poor.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const cleared = await gql<{ updateOrganization: { passBackgroundColor: string | null } }>(mutation, { variables: { input: { id: organization.id, passBackgroundColor: null, passTextColor: null } }, tokens });
    expect(cleared.body.data?.updateOrganization).toEqual({ passBackgroundColor: null, passTextColor: null });
  });
});

describe("the venue on the map", () => {
  it("is optional, both or neither and in range; set, the Apple pass carries it in locations with its relevant date", async () => {
    const { ctx, producer, billing, tickets, event, date } = await bought();
    expect((await passJson(ctx, billing.id, tickets[0].id)).locations).toBeUndefined();
    await expect(updateEvent(producer.ctx, { ...eventInput(event), venueLatitude: "95", venueLongitude: "-58" })).rejects.toMatchObject({ fieldErrors: { venueLatitude: [expect.stringContaining("-90 a 90")] } });
    await expect(updateEvent(producer.ctx, { ...eventInput(event), venueLatitude: "-34,6" })).rejects.toMatchObject({ fieldErrors: { venueLongitude: [expect.stringContaining("las dos vacías")] } });
    await expect(updateEvent(producer.ctx, { ...eventInput(event), venueLatitude: "norte", venueLongitude: "-58" })).rejects.toBeInstanceOf(Invalid);

    // Comma decimals, as people type them here.
    const updated = await updateEvent(producer.ctx, { ...eventInput(event), venueLatitude: "-34,5889", venueLongitude: "-58,4304" });
    expect(updated).toMatchObject({ venueLatitude: -34.5889, venueLongitude: -58.4304 });
    const pass = await passJson(ctx, billing.id, tickets[0].id);
    expect(pass.locations).toEqual([{ latitude: -34.5889, longitude: -58.4304, relevantText: "Llegaste a Club Atlético Fernández Fierro: tu entrada está acá." }]);
    expect(new Date(String(pass.relevantDate)).toISOString()).toBe(date.startsAt.toISOString());

    // Outside Argentina is still a valid place (a warning on the page, not an error).
    await updateEvent(producer.ctx, { ...eventInput(event), venueLatitude: 40.4168, venueLongitude: -3.7038 });
    expect((await passJson(ctx, billing.id, tickets[0].id)).locations).toEqual([expect.objectContaining({ latitude: 40.4168, longitude: -3.7038 })]);
    // Emptied: no place.
    await updateEvent(producer.ctx, { ...eventInput(event), venueLatitude: "", venueLongitude: "" });
    expect((await passJson(ctx, billing.id, tickets[0].id)).locations).toBeUndefined();
  });

  it("GraphQL reads and sets the coordinates on the event", async () => {
    const { producer, event } = await bought({ qty: 1 });
    const tokens = await startSession(await getDb(), { ...producer.user, roles: ["producer"] }, new Date());
    const result = await gql<{ updateEvent: { venueLatitude: number; venueLongitude: number } }>(
      `mutation($input: UpdateEventInput!) { updateEvent(input: $input) { venueLatitude venueLongitude } }`,
      { variables: { input: { id: event.id, venueLatitude: -31.4201, venueLongitude: -64.1888 } }, tokens },
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data?.updateEvent).toEqual({ venueLatitude: -31.4201, venueLongitude: -64.1888 });
    const bad = await gql(`mutation($input: UpdateEventInput!) { updateEvent(input: $input) { id } }`, { variables: { input: { id: event.id, venueLongitude: 200 } }, tokens });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("Google's class follows the event", () => {
  it("an edit of the name or venue queues one job that PATCHes the class once; an edit that changes nothing it shows, none; a moved date, one more", async () => {
    const { producer, event, date } = await bought({ qty: 1 });
    await updateEvent(producer.ctx, { ...eventInput(event), name: "Noche de Cumbia — Nueva fecha", venueName: "Club Cultural Matienzo" });
    expect(await walletEventJobs(event.id)).toHaveLength(1);
    await runWalletEventJobs(event.id);
    expect(classPatches).toHaveLength(1);
    expect(classPatches[0].id).toBe(`3388000000022212345.event-${event.id}`);
    expect(classPatches[0].body).toMatchObject({
      eventName: { defaultValue: { language: "es-AR", value: "Noche de Cumbia — Nueva fecha" } },
      venue: { name: { defaultValue: { value: "Club Cultural Matienzo" } } },
      dateTime: { start: date.startsAt.toISOString() },
      reviewStatus: "UNDER_REVIEW",
    });

    // The description is not on the pass: no job.
    await updateEvent(producer.ctx, { ...eventInput(event), name: "Noche de Cumbia — Nueva fecha", venueName: "Club Cultural Matienzo", description: "Otra descripción." });
    expect(await walletEventJobs(event.id)).toHaveLength(1);

    const later = new Date(date.startsAt.getTime() + 3600_000);
    await saveEventSchedule(producer.ctx, { eventId: event.id, dates: [{ id: date.id, startsAt: later.toISOString(), endsAt: new Date(later.getTime() + 5 * 3600_000).toISOString() }] });
    expect(await walletEventJobs(event.id)).toHaveLength(2);
    classPatches.length = 0;
    await runWalletEventJobs(event.id);
    expect(classPatches).toHaveLength(1);
    expect(classPatches[0].body).toMatchObject({ dateTime: { start: later.toISOString() } });
  });

  it("an event nobody has a ticket for queues nothing (no pass can exist)", async () => {
    const producer = await createProducer();
    const { event } = await createPublishedEvent(producer.ctx, producer.organization.id);
    await updateEvent(producer.ctx, { ...eventInput(event), name: "Sin entradas vendidas" });
    expect(await walletEventJobs(event.id)).toHaveLength(0);
  });
});

describe("the live QR's note in the tickets PDF and email", () => {
  it("says from when the static QR counts when that is still ahead; an event without live QR says nothing", async () => {
    const live = await bought({ liveQr: true, qty: 1 });
    const db = await getDb();
    const [date] = await db.select().from(eventDates).where(eq(eventDates.id, live.date.id));
    const from = staticCodeAdmittedFrom(date.doorsAt ?? date.startsAt, 2);
    await sendTicketsEmailOf(live.order.id);
    const [email] = await emailsTo(live.user.email, "tickets");
    const note = `vale desde el ${formatLongDay(from)} a las ${formatTime(from)} h; antes, mostrá la entrada en vivo desde Mis tickets`;
    expect(email.html).toContain(`El QR de las entradas de este correo y del PDF ${note}`);
    expect(email.text).toContain(note);
    const [pdf] = await db.select().from(emailAttachments).where(and(eq(emailAttachments.emailLogId, email.id), eq(emailAttachments.contentType, "application/pdf")));
    const text = (await drawnText(Buffer.from(pdf.contentBase64, "base64"))).replace(/\s+/g, " ");
    expect(text).toContain(`El QR de este PDF vale desde el ${formatLongDay(from)} a las ${formatTime(from)} h`);

    const plain = await bought({ qty: 1 });
    await sendTicketsEmailOf(plain.order.id);
    const [other] = await emailsTo(plain.user.email, "tickets");
    expect(other.html).not.toContain("vale desde");
    const [otherPdf] = await db.select().from(emailAttachments).where(and(eq(emailAttachments.emailLogId, other.id), eq(emailAttachments.contentType, "application/pdf")));
    expect(await drawnText(Buffer.from(otherPdf.contentBase64, "base64"))).not.toContain("vale desde");
  });
});

/** The class and the object a ticket's "Guardar en Google Wallet" link carries. */
async function savedPass(ctx: Awaited<ReturnType<typeof bought>>["ctx"], billingId: string, ticketId: string) {
  const url = await googleSaveUrlForBuyer(ctx, { billingId, ticketId, token: null });
  const claims = decodeJwt(url.split("/").pop()!) as { payload: { eventTicketClasses: Record<string, unknown>[]; eventTicketObjects: Record<string, unknown>[] } };
  return { class: claims.payload.eventTicketClasses[0], object: claims.payload.eventTicketObjects[0] };
}

describe("an event with two dates: one Google class per date (decision 238)", () => {
  it("each ticket's pass shows its own date; the first date keeps the event's class id; a moved date patches its class only, an edit of the event every date's", async () => {
    // An event on sale with one date (its passes saved with the class of the whole event), then a second date.
    const first = await bought({ qty: 1 });
    const { db, producer, event } = first;
    const firstClass = `3388000000022212345.event-${event.id}`;
    const before = await savedPass(first.ctx, first.billing.id, first.tickets[0].id);
    expect(before.class).toMatchObject({ id: firstClass, dateTime: { start: first.date.startsAt.toISOString() } });

    const startsAt = new Date(first.date.startsAt.getTime() + 24 * 3600_000 + 3600_000);
    const doorsAt = new Date(startsAt.getTime() - 2 * 3600_000);
    const endsAt = new Date(startsAt.getTime() + 5 * 3600_000);
    // A later request than the event's creation (the first date is the one created first).
    const added = await saveEventSchedule({ ...producer.ctx, now: new Date() }, { eventId: event.id, dates: [{ startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString(), doorsAt: doorsAt.toISOString() }] });
    const secondId = added.dates.find((d) => d.action === "create")!.id;
    // A new date has no pass yet: nothing to patch.
    expect(await walletEventJobs(event.id)).toHaveLength(0);

    const [campo] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const user = await createTestUser();
    const ctx = await ctxAs(actorFor({ ...user, roles: [] }));
    const { order, billing } = await createOrder(ctx, {
      eventSlug: event.slug,
      eventDateId: secondId,
      items: [{ ticketId: campo.id, qty: 1 }],
      payer: { firstName: "Julián", lastName: "Ríos", email: user.email, documentType: "dni", documentNumber: "30999888", phoneNumber: "+54 11 5555-9876" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(db, billing.id, "approved");
    const [ticket] = await ticketsOfOrder(db, order.id);

    // The second date's ticket: its own class, with its own start, end and doors; its object in that class.
    const secondClass = `3388000000022212345.event-${event.id}_${secondId}`;
    const second = await savedPass(ctx, billing.id, ticket.id);
    expect(second.class).toMatchObject({ id: secondClass, dateTime: { start: startsAt.toISOString(), end: endsAt.toISOString(), doorsOpen: doorsAt.toISOString() } });
    expect(second.object).toMatchObject({ classId: secondClass, validTimeInterval: { end: { date: endsAt.toISOString() } } });
    // The first date's ticket keeps the class it was saved with, and its time.
    const again = await savedPass(first.ctx, first.billing.id, first.tickets[0].id);
    expect(again.class).toMatchObject({ id: firstClass, dateTime: { start: first.date.startsAt.toISOString() } });
    expect(again.object).toMatchObject({ classId: firstClass });

    // Apple: the second date's pass shows its day and time, and is relevant from its doors.
    const pass = (await passJson(ctx, billing.id, ticket.id)) as { relevantDate: string; expirationDate: string; eventTicket: Record<string, { key: string; value: string }[]> };
    const fields = Object.values(pass.eventTicket).flat();
    expect(fields).toEqual(expect.arrayContaining([expect.objectContaining({ key: "date", value: formatEventDay(startsAt) }), expect.objectContaining({ key: "time", value: `${formatTime(startsAt)} h` })]));
    expect(new Date(pass.relevantDate).getTime()).toBe(doorsAt.getTime());
    expect(new Date(pass.expirationDate).getTime()).toBe(endsAt.getTime());

    // The second date moves an hour: one job, one PATCH, of that date's class only.
    const later = new Date(startsAt.getTime() + 3600_000);
    await saveEventSchedule({ ...producer.ctx, now: new Date() }, { eventId: event.id, dates: [{ id: secondId, startsAt: later.toISOString(), endsAt: new Date(later.getTime() + 5 * 3600_000).toISOString(), doorsAt: doorsAt.toISOString() }] });
    expect(await walletEventJobs(event.id)).toHaveLength(1);
    await runWalletEventJobs(event.id);
    expect(classPatches.map((p) => p.id)).toEqual([secondClass]);
    expect(classPatches[0].body).toMatchObject({ id: secondClass, dateTime: { start: later.toISOString(), doorsOpen: doorsAt.toISOString() } });

    // The event's name: every date's class, each with its own time.
    classPatches.length = 0;
    await updateEvent(producer.ctx, { ...eventInput(event), name: "Noche de Cumbia — Dos fechas" });
    await runWalletEventJobs(event.id);
    expect(classPatches.map((p) => p.id).sort()).toEqual([firstClass, secondClass].sort());
    expect(classPatches.find((p) => p.id === firstClass)!.body).toMatchObject({ eventName: { defaultValue: { value: "Noche de Cumbia — Dos fechas" } }, dateTime: { start: first.date.startsAt.toISOString() } });
    expect(classPatches.find((p) => p.id === secondClass)!.body).toMatchObject({ eventName: { defaultValue: { value: "Noche de Cumbia — Dos fechas" } }, dateTime: { start: later.toISOString() } });
  });
});

describe("the live QR's note in the email of a ticket sent to another person", () => {
  it("says from when the static QR counts, in the email and its PDF, as the purchase's do; an event without live QR says nothing", async () => {
    const send = async (purchase: Awaited<ReturnType<typeof bought>>) => {
      const tokens = await startSession(await getDb(), { ...purchase.user, roles: [] }, new Date());
      const email = `lucia.${crypto.randomUUID().slice(0, 8)}@example.com`;
      const sent = await gql(`mutation($input: TransferTicketInput!) { transferTicket(input: $input) { id } }`, {
        variables: { input: { ticketId: purchase.tickets[0].id, firstName: "Lucía", lastName: "Gómez", email } },
        tokens,
      });
      expect(sent.body.errors).toBeUndefined();
      const [received] = await emailsTo(email, TICKET_TRANSFER_EMAIL_KIND);
      const db = await getDb();
      const [pdf] = await db.select().from(emailAttachments).where(and(eq(emailAttachments.emailLogId, received.id), eq(emailAttachments.contentType, "application/pdf")));
      return { received, pdfText: (await drawnText(Buffer.from(pdf.contentBase64, "base64"))).replace(/\s+/g, " ") };
    };

    const live = await bought({ liveQr: true, qty: 1 });
    const [date] = await (await getDb()).select().from(eventDates).where(eq(eventDates.id, live.date.id));
    const from = staticCodeAdmittedFrom(date.doorsAt ?? date.startsAt, 2);
    // Whoever receives it has no purchase link to show it live from: only when its QR counts at the door.
    const when = `vale en la puerta desde el ${formatLongDay(from)} a las ${formatTime(from)} h.`;
    const { received, pdfText } = await send(live);
    expect(received.html).toContain(`El QR de esta entrada, en este correo y en el PDF, ${when}`);
    expect(received.text).toContain(`El QR de esta entrada, en este correo y en el PDF, ${when}`);
    expect(received.text).not.toContain("link de tu compra");
    expect(pdfText).toContain(`El QR de este PDF ${when}`);

    const plain = await send(await bought({ qty: 1 }));
    expect(plain.received.html).not.toContain("vale en la puerta desde");
    expect(plain.received.text).not.toContain("vale en la puerta desde");
    expect(plain.pdfText).not.toContain("vale en la puerta desde");
  });
});
