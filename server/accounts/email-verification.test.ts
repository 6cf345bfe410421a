import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { orders, users } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { listMyTickets } from "#server/tickets/tickets";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { emailsTo, lastEmailTo, lastSignInToken } from "#tests/support/mailbox";
import { randomTag } from "#tests/support/random";
import { register } from "./auth";
import { ALREADY_VERIFIED, BAD_VERIFICATION_LINK, VERIFICATION_TTL_SECONDS, sendEmailVerification, verificationToken, verifyEmail } from "./email-verification";
import { createSignInLink, finishSignInFromLink } from "./sign-in-link";
import { updateUser } from "./users";

let ip = 0;
const freshIp = () => `203.0.113.${10 + (++ip % 200)}`;
const badLink = { code: "BAD_USER_INPUT", message: BAD_VERIFICATION_LINK };

/** A paid purchase made without an account, with `email` as the payer's. */
async function anonymousPurchase(email: string, options: { buyerUserId?: string } = {}) {
  const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 50 }]);
  const ctx = options.buyerUserId ? await ctxAs(actorFor({ id: options.buyerUserId, email: "otra@example.com", roles: [] })) : await ctxAs();
  const { order, billing } = await createOrder(ctx, {
    eventSlug: made.event.slug,
    items: [{ ticketId: made.tickets.General.id, qty: 2 }],
    payer: { firstName: "Ana", lastName: "Gómez", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  await payInSandbox(await getDb(), billing.id, "approved");
  return order;
}

const tokenOf = (text: string) => decodeURIComponent(/[?&]token=([^\s&"<]+)/.exec(text)![1]);

describe("email verification (decision 115)", () => {
  it("registration emails a link; opening it verifies the email and joins the purchases made without an account, once", async () => {
    const email = `ana-${randomTag()}@example.com`;
    const earlier = await anonymousPurchase(email.toUpperCase());
    const registered = await register(await ctxAs(ANONYMOUS, new Date(), freshIp()), { firstName: "Ana", lastName: "Gómez", email, password: "clave-segura-1" });
    expect(registered.verification).toEqual({ emailTo: email, logEmailId: expect.any(String) });
    const mail = await lastEmailTo(email, "email-verification");
    expect(mail.subject).toBe("Confirmá tu email en Tribuna");
    expect(mail.text).toContain("/cuenta/verificar-email?token=");
    expect(mail.text).not.toContain("Modo de prueba");

    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    const mine = await ctxAs(actorFor(user));
    // Not verified yet: the purchase stays apart.
    expect((await listMyTickets(mine)).upcoming).toHaveLength(0);

    const first = await verifyEmail(await ctxAs(), { token: tokenOf(mail.text) });
    expect(first).toEqual({ email, alreadyVerified: false, joinedOrders: 1 });
    const [joined] = await db.select().from(orders).where(eq(orders.id, earlier.id));
    expect(joined.buyerUserId).toBe(user.id);
    const tickets = await listMyTickets(mine);
    expect(tickets.upcoming.map((t) => t.orderCode)).toEqual([earlier.code, earlier.code]);

    // Again: nothing changes, nothing more joins.
    expect(await verifyEmail(await ctxAs(), { token: tokenOf(mail.text) })).toEqual({ email, alreadyVerified: true, joinedOrders: 0 });
    await expect(sendEmailVerification(await ctxAs(actorFor(user), new Date(), freshIp()))).rejects.toMatchObject({ code: "CONFLICT", message: ALREADY_VERIFIED });
  });

  it("never moves a purchase made with another account", async () => {
    const email = `beto-${randomTag()}@example.com`;
    const other = await createTestUser();
    const placedByOther = await anonymousPurchase(email, { buyerUserId: other.id });
    const user = await createTestUser({ email });
    const result = await verifyEmail(await ctxAs(), { token: await verificationToken(user, new Date()) });
    expect(result.joinedOrders).toBe(0);
    const [kept] = await (await getDb()).select().from(orders).where(eq(orders.id, placedByOther.id));
    expect(kept.buyerUserId).toBe(other.id);
  });

  it("a purchase made without an account after the email is verified belongs to the account as soon as it is paid", async () => {
    const email = `eli-${randomTag()}@example.com`;
    const user = await createTestUser({ email, emailVerifiedAt: new Date() });
    const later = await anonymousPurchase(email.toUpperCase());
    const [joined] = await (await getDb()).select().from(orders).where(eq(orders.id, later.id));
    expect(joined.buyerUserId).toBe(user.id);
    // Not verified: it stays apart.
    const other = `fede-${randomTag()}@example.com`;
    await createTestUser({ email: other });
    const apart = await anonymousPurchase(other);
    const [kept] = await (await getDb()).select().from(orders).where(eq(orders.id, apart.id));
    expect(kept.buyerUserId).toBeNull();
  });

  it("a sign-in link (any path that proves the address) joins them too", async () => {
    const email = `caro-${randomTag()}@example.com`;
    const user = await createTestUser({ email });
    const earlier = await anonymousPurchase(email);
    await createSignInLink(await ctxAs(ANONYMOUS, new Date(), freshIp()), { email });
    await finishSignInFromLink(await ctxAs(), { token: await lastSignInToken(email) });
    const [joined] = await (await getDb()).select().from(orders).where(eq(orders.id, earlier.id));
    expect(joined.buyerUserId).toBe(user.id);
  });

  it("refuses an expired link, a link for an address the account no longer has, and other signed tokens", async () => {
    const email = `dani-${randomTag()}@example.com`;
    const user = await createTestUser({ email });
    const t0 = new Date("2030-07-01T20:00:00Z");
    const token = await verificationToken(user, t0);
    await expect(verifyEmail(await ctxAs(ANONYMOUS, new Date(t0.getTime() + (VERIFICATION_TTL_SECONDS + 1) * 1000)), { token })).rejects.toMatchObject(badLink);
    await expect(verifyEmail(await ctxAs(), { token: "no-es-un-token" })).rejects.toMatchObject(badLink);
    await expect(verifyEmail(await ctxAs(), { token: null })).rejects.toMatchObject(badLink);
    const { signAccessToken } = await import("#server/auth/tokens");
    await expect(verifyEmail(await ctxAs(), { token: await signAccessToken({ sub: user.id, email, roles: [], sid: crypto.randomUUID() }, new Date()) })).rejects.toMatchObject(badLink);

    // Changing the email forgets the verification and makes the old link worthless.
    const fresh = await verificationToken(user, new Date());
    await verifyEmail(await ctxAs(), { token: fresh });
    await updateUser(await ctxAs(actorFor(user)), { email: `nuevo-${randomTag()}@example.com` });
    const [after] = await (await getDb()).select().from(users).where(eq(users.id, user.id));
    expect(after.emailVerifiedAt).toBeNull();
    await expect(verifyEmail(await ctxAs(), { token: fresh })).rejects.toMatchObject(badLink);
  });

  it("sending is rate limited per address like sign-in links", async () => {
    const user = await createTestUser();
    const ctx = await ctxAs(actorFor(user), new Date(), freshIp());
    for (let i = 0; i < 5; i++) await sendEmailVerification(ctx);
    await expect(sendEmailVerification(ctx)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(await emailsTo(user.email, "email-verification")).toHaveLength(5);
  });
});
