import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { canonicalShortCode, parseShortTicketCode, shortTicketCode } from "#common/door";
import { scannedLookup } from "#common/door-manifest";
import { getDb } from "#server/db/client";
import { issuedProducts, orders, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payment-notifications/sandbox";
import { ticketsOfOrder } from "#server/tickets/issue";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { DOOR_PIN_LIMITS, rotateDoorPin, unlockDoor, type DoorAccess } from "./access";
import { searchAtDoor } from "./search";

const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

async function night(qty = 3) {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
  const db = await getDb();
  const [general] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
  const { order, billing } = await createOrder(await ctxAs(), { eventSlug: event.slug, items: [{ ticketId: general.id, qty }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  const tickets = await ticketsOfOrder(db, order.id);
  const access: DoorAccess = { event: { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug }, userId: producer.user.id, pinSessionId: null };
  return { db, producer, event, order, tickets, access };
}

describe("searchAtDoor folds accents and case in the database", () => {
  it("finds Sofía, Núñez and Muñoz typed plainly, and still by DNI and order code", async () => {
    const { db, producer, order, tickets, access } = await night();
    const names = ["Sofía Gómez", "Joaquín Núñez", "Lucía Muñoz"];
    for (const [i, holderName] of names.entries()) await db.update(issuedProducts).set({ holderName }).where(eq(issuedProducts.id, tickets[i].id));
    const found = async (q: string) => (await searchAtDoor(producer.ctx, access, q)).map((h) => h.holderName).sort();
    expect(await found("sofia")).toEqual(["Sofía Gómez"]);
    expect(await found("joaquin")).toEqual(["Joaquín Núñez"]);
    expect(await found("nunez")).toEqual(["Joaquín Núñez"]);
    expect(await found("munoz")).toEqual(["Lucía Muñoz"]);
    expect(await found("LUCIA MUÑOZ")).toEqual(["Lucía Muñoz"]);
    expect(await found("100%")).toEqual([]);
    expect(await found("30123456")).toEqual([...names].sort());
    const [{ code }] = await db.select({ code: orders.code }).from(orders).where(eq(orders.id, order.id));
    expect(await found(code)).toEqual([...names].sort());
  });
});

describe("typed short codes", () => {
  it("the door phone hashes the same canonical form the server signs into the manifest", () => {
    const code = "Ad-0n4j1Lh_rest-of-the-code";
    expect(shortTicketCode(code)).toBe("AD-0N 4J1LH");
    const canonical = canonicalShortCode(code.slice(0, 10));
    for (const typed of ["adon4jilh", "AD-0N 4J1LH", "ad 0n4j-1lh", "ADON4J I L H"]) {
      expect(parseShortTicketCode(typed)).toBe(canonical);
      expect(scannedLookup(typed)).toEqual({ kind: "short", value: canonical });
    }
    expect(parseShortTicketCode("ABC")).toBeNull();
    expect(parseShortTicketCode("ABCDEFGHIJK")).toBeNull();
  });
});

describe("door PIN lockout", () => {
  it("another device on the same address keeps its tries after one device is locked, up to the address's ceiling for the event", async () => {
    const { producer, event } = await night(1);
    const { pin } = await rotateDoorPin(producer.ctx, event.id);
    const wrong = pin === "00000000" ? "11111111" : "00000000";
    const staff = await ctxAs(undefined, new Date(), "198.51.100.77");
    const tryPin = (deviceId: string, p: string) => unlockDoor(staff, { slug: event.slug, pin: p, deviceId }).then(() => "open", (e: { code: string }) => e.code);

    for (let i = 0; i < DOOR_PIN_LIMITS.device; i++) expect(await tryPin("device-one", wrong)).toBe("BAD_USER_INPUT");
    expect(await tryPin("device-one", pin)).toBe("TOO_MANY_REQUESTS");
    // The new phone on the same Wi-Fi is not locked out by the first one's mistakes.
    expect(await tryPin("device-two", pin)).toBe("open");

    // Past the address's ceiling for this event, every device there waits: changing the cookie does not buy more guesses.
    let wrongs = DOOR_PIN_LIMITS.device;
    for (let d = 3; wrongs < DOOR_PIN_LIMITS.ip; d++) {
      for (let i = 0; i < DOOR_PIN_LIMITS.device && wrongs < DOOR_PIN_LIMITS.ip; i++, wrongs++) expect(await tryPin(`device-${d}x`, wrong)).toBe("BAD_USER_INPUT");
    }
    expect(await tryPin("device-fresh", pin)).toBe("TOO_MANY_REQUESTS");
    // From another address the event still opens.
    expect(await unlockDoor(await ctxAs(undefined, new Date(), "198.51.100.78"), { slug: event.slug, pin, deviceId: "device-elsewhere" })).toMatchObject({ token: expect.any(String) });
  });
});
