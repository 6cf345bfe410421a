import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { issuedProducts, orders } from "#server/db/schema";
import { DOOR_PIN_LIMITS } from "#server/door/access";
import { newTicketCode } from "#server/tickets/issue";
import { tonightWithPaidTickets } from "#tests/support/tonight";
import { errorCode, gql } from "#tests/support/graphql";


async function night() {
  const { db, event, order, tickets, tokens } = await tonightWithPaidTickets();
  const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens, variables: { eventId: event.id } })).body.data!.rotateDoorPin.pin;
  return { db, event, order, tickets, pin };
}

const ROTATE = `mutation($eventId: ID!) { rotateDoorPin(eventId: $eventId) { pin } }`;
const OPEN = `mutation($slug: String!, $pin: String!) { openDoor(eventSlug: $slug, staffPin: $pin) { token } }`;
const SEARCH = `query($slug: String!, $q: String!, $session: String) { doorSearch(eventSlug: $slug, query: $q, doorSession: $session) { code holderName } }`;
const REDEEM = `mutation($input: RedeemProductInput!) { redeemProduct(input: $input) { outcome title } }`;

const otherPin = (pin: string) => (pin === "12345678" ? "87654321" : "12345678");

describe("the door at night, over GraphQL", () => {
  it("doorSearch finds names typed without accents or capitals, a DNI with dots and the order code", async () => {
    const { db, event, order, tickets, pin } = await night();
    const names = ["Sofía Gómez", "Joaquín Núñez", "Lucía Muñoz"];
    for (const [i, holderName] of names.entries()) await db.update(issuedProducts).set({ holderName }).where(eq(issuedProducts.id, tickets[i].id));
    const token = (await gql<{ openDoor: { token: string } }>(OPEN, { variables: { slug: event.slug, pin }, ip: "198.51.100.90" })).body.data!.openDoor.token;
    const search = async (q: string) => {
      const result = await gql<{ doorSearch: { holderName: string }[] }>(SEARCH, { variables: { slug: event.slug, q, session: token } });
      expect(result.body.errors).toBeUndefined();
      return result.body.data!.doorSearch.map((h) => h.holderName).sort();
    };
    expect(await search("sofia")).toEqual(["Sofía Gómez"]);
    expect(await search("joaquin")).toEqual(["Joaquín Núñez"]);
    expect(await search("nunez")).toEqual(["Joaquín Núñez"]);
    expect(await search("MUNOZ")).toEqual(["Lucía Muñoz"]);
    expect(await search("Núñez")).toEqual(["Joaquín Núñez"]);
    expect(await search("30.123.456")).toEqual([...names].sort());
    const [{ code }] = await db.select({ code: orders.code }).from(orders).where(eq(orders.id, order.id));
    expect(await search(code.toLowerCase())).toEqual([...names].sort());
  });

  it("redeemProduct reads a short code typed in lower case, without separators, with O for 0 and I or L for 1", async () => {
    const { db, event, tickets, pin } = await night();
    // A ticket whose printed short code is "AD-0N 4J1LH": a dash, a zero and a one a doorperson can mistype.
    await db.update(issuedProducts).set({ code: `Ad-0n4j1Lh${newTicketCode().slice(10)}` }).where(eq(issuedProducts.id, tickets[0].id));
    const input = { eventSlug: event.slug, staffPin: pin, door: "Puerta 1", deviceId: "api-night" };
    const typed = await gql<{ redeemProduct: { outcome: string } }>(REDEEM, { variables: { input: { ...input, code: "adon4j ilh" } }, ip: "198.51.100.91" });
    expect(typed.body.errors).toBeUndefined();
    expect(typed.body.data!.redeemProduct).toMatchObject({ outcome: "admitted", title: "Adelante" });
    const again = await gql<{ redeemProduct: { outcome: string } }>(REDEEM, { variables: { input: { ...input, code: "AD-0N 4J1LH" } }, ip: "198.51.100.91" });
    expect(again.body.data!.redeemProduct).toMatchObject({ outcome: "already_in" });
    const unknown = await gql<{ redeemProduct: { outcome: string } }>(REDEEM, { variables: { input: { ...input, code: "ZZZZZ ZZZZZ" } }, ip: "198.51.100.91" });
    expect(unknown.body.data!.redeemProduct).toMatchObject({ outcome: "unknown", title: "Código no válido" });
  });

  it("wrong PINs that lock one event from an address do not stop another event's right PIN from that address", async () => {
    const a = await night();
    const b = await night();
    const ip = "198.51.100.92";
    let locked = false;
    for (let i = 0; i <= DOOR_PIN_LIMITS.ip && !locked; i++) {
      const wrong = await gql(OPEN, { variables: { slug: a.event.slug, pin: otherPin(a.pin) }, ip });
      locked = errorCode(wrong) === "TOO_MANY_REQUESTS";
    }
    expect(locked).toBe(true);
    expect(errorCode(await gql(OPEN, { variables: { slug: a.event.slug, pin: a.pin }, ip }))).toBe("TOO_MANY_REQUESTS");
    const opened = await gql<{ openDoor: { token: string } }>(OPEN, { variables: { slug: b.event.slug, pin: b.pin }, ip });
    expect(opened.body.errors).toBeUndefined();
    expect(opened.body.data!.openDoor.token).toBeTruthy();
  });
});
