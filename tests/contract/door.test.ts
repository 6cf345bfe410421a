import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { issuedProducts } from "#server/db/schema";
import { qrPayloadFor } from "#server/tickets/qr";
import { tonightWithPaidTickets } from "#tests/support/tonight";
import { errorCode, gql, GRAPHQL_URL } from "#tests/support/graphql";
import { action as graphqlAction } from "#app/routes/api.graphql";
import { cookieHeader } from "#tests/support/graphql";


async function night() {
  const { event, tickets, tokens } = await tonightWithPaidTickets();
  return { event, tickets, tokens };
}

const ROTATE = `mutation($eventId: ID!) { rotateDoorPin(eventId: $eventId) { pin createdAt } }`;
const REDEEM = `mutation($input: RedeemProductInput!) { redeemProduct(input: $input) { scanId outcome admitted title detail holderName ticketTypeName redeemedAt redeemedDoor } }`;
const SYNC = `mutation($input: SyncDoorScansInput!) { syncDoorScans(input: $input) { scanId outcome detail } }`;
const OPEN = `mutation($slug: String!, $pin: String!) { openDoor(eventSlug: $slug, staffPin: $pin) { token expiresAt eventName } }`;
const SEARCH = `query($slug: String!, $q: String!, $session: String) { doorSearch(eventSlug: $slug, query: $q, doorSession: $session) { code holderName status } }`;

type Answer = { scanId: string; outcome: string; admitted: boolean; title: string; detail: string; holderName: string | null; redeemedDoor: string | null };

describe("the door over GraphQL", () => {
  it("redeemProduct with the staff PIN: admitted once, then already_in with the door; a wrong PIN is refused", async () => {
    const { event, tickets, tokens } = await night();
    const rotated = await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens, variables: { eventId: event.id } });
    const pin = rotated.body.data!.rotateDoorPin.pin;
    expect(pin).toMatch(/^\d{8}$/);

    const input = { eventSlug: event.slug, staffPin: pin, code: qrPayloadFor(tickets[0].code), door: "Puerta 1", deviceId: "api-1" };
    const first = await gql<{ redeemProduct: Answer }>(REDEEM, { variables: { input }, ip: "198.51.100.60" });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data!.redeemProduct).toMatchObject({ outcome: "admitted", admitted: true, title: "Adelante", holderName: "Sofía Peña" });
    const second = await gql<{ redeemProduct: Answer }>(REDEEM, { variables: { input: { ...input, door: "Puerta 2" } }, ip: "198.51.100.60" });
    expect(second.body.data!.redeemProduct).toMatchObject({ outcome: "already_in", admitted: false, redeemedDoor: "Puerta 1" });
    expect(second.body.data!.redeemProduct.detail).toMatch(/^Ya ingresó a las \d{2}:\d{2} por Puerta 1: Sofía Peña\.$/);

    const wrong = await gql(REDEEM, { variables: { input: { ...input, staffPin: "12345678" === pin ? "87654321" : "12345678" } }, ip: "198.51.100.61" });
    expect(errorCode(wrong)).toBe("BAD_USER_INPUT");
    const none = await gql(REDEEM, { variables: { input: { ...input, staffPin: null } }, ip: "198.51.100.61" });
    expect(errorCode(none)).toBe("UNAUTHENTICATED");

    const LIST = `query($org: ID!) { accreditations(organizationId: $org) { total page limit items { issuedProductId holderName door deviceId scannedBy offline } } }`;
    const listed = await gql<{ accreditations: { total: number; items: { issuedProductId: string; door: string; scannedBy: string }[] } }>(LIST, { tokens, variables: { org: event.organizationId } });
    expect(listed.body.data!.accreditations).toMatchObject({ total: 1, page: 0, limit: 50, items: [{ holderName: "Sofía Peña", door: "Puerta 1", deviceId: "api-1", scannedBy: "PIN de puerta", offline: false }] });
    const UNDO = `mutation($id: ID!) { undoRedemption(issuedProductId: $id, reason: "Prueba") }`;
    const id = listed.body.data!.accreditations.items[0].issuedProductId;
    expect((await gql<{ undoRedemption: boolean }>(UNDO, { tokens, variables: { id } })).body.data!.undoRedemption).toBe(true);
    expect(errorCode(await gql(UNDO, { tokens, variables: { id } }))).toBe("CONFLICT");
    expect(errorCode(await gql(LIST, { variables: { org: event.organizationId } }))).toBe("UNAUTHENTICATED");
  });

  it("openDoor trades the PIN for a session; syncDoorScans applies an offline queue once however often it is sent", async () => {
    const { event, tickets, tokens } = await night();
    const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens, variables: { eventId: event.id } })).body.data!.rotateDoorPin.pin;
    const opened = await gql<{ openDoor: { token: string; eventName: string } }>(OPEN, { variables: { slug: event.slug, pin }, ip: "198.51.100.62" });
    expect(opened.body.data!.openDoor.eventName).toBe(event.name);
    const doorSession = opened.body.data!.openDoor.token;

    const scans = tickets.slice(0, 2).map((t, i) => ({ scanId: `q-${i}`, code: qrPayloadFor(t.code), scannedAt: new Date(Date.now() - (5 - i) * 60_000).toISOString(), acceptedOffline: true, door: "Puerta 3" }));
    const input = { eventSlug: event.slug, doorSession, deviceId: "phone-3", scans };
    const first = await gql<{ syncDoorScans: Answer[] }>(SYNC, { variables: { input } });
    const again = await gql<{ syncDoorScans: Answer[] }>(SYNC, { variables: { input } });
    expect(first.body.data!.syncDoorScans.map((a) => a.outcome)).toEqual(["admitted", "admitted"]);
    expect(again.body.data!.syncDoorScans).toEqual(first.body.data!.syncDoorScans);

    const found = await gql<{ doorSearch: { status: string }[] }>(SEARCH, { variables: { slug: event.slug, q: "Peña", session: doorSession } });
    expect(found.body.data!.doorSearch.map((h) => h.status).sort()).toEqual(["redeemable", "redeemed", "redeemed"]);
  });

  it("staff with a PIN read nothing else: PIN management and other events refuse them", async () => {
    const { event, tokens } = await night();
    const other = await night();
    const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens, variables: { eventId: event.id } })).body.data!.rotateDoorPin.pin;
    const session = (await gql<{ openDoor: { token: string } }>(OPEN, { variables: { slug: event.slug, pin }, ip: "198.51.100.63" })).body.data!.openDoor.token;
    expect(errorCode(await gql(SEARCH, { variables: { slug: other.event.slug, q: "Peña", session } }))).toBe("UNAUTHENTICATED");
    expect(errorCode(await gql(ROTATE, { variables: { eventId: event.id } }))).toBe("UNAUTHENTICATED");
    expect(errorCode(await gql(ROTATE, { tokens: other.tokens, variables: { eventId: event.id } }))).toBe("FORBIDDEN");
  });
});

describe("openDoor counts wrong PINs per device, as the door page does (decision 155)", () => {
  const OPEN_ON = `mutation($slug: String!, $pin: String!, $device: String) { openDoor(eventSlug: $slug, staffPin: $pin, deviceId: $device) { token } }`;

  it("a device that typed the PIN wrong too often is locked; another device at the same door still may try", async () => {
    const { event, tokens } = await night();
    const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens, variables: { eventId: event.id } })).body.data!.rotateDoorPin.pin;
    const wrong = pin === "00000000" ? "11111111" : "00000000";
    const ip = "198.51.100.90";
    for (let i = 0; i < 10; i++) {
      expect(errorCode(await gql(OPEN_ON, { variables: { slug: event.slug, pin: wrong, device: "tablet-aaaa1" }, ip }))).toBe("BAD_USER_INPUT");
    }
    expect(errorCode(await gql(OPEN_ON, { variables: { slug: event.slug, pin, device: "tablet-aaaa1" }, ip }))).toBe("TOO_MANY_REQUESTS");
    // The door screen's cookie names the device when the argument does not.
    expect(errorCode(await gql(OPEN_ON, { variables: { slug: event.slug, pin }, ip, headers: { cookie: "door-device=tablet-aaaa1" } }))).toBe("TOO_MANY_REQUESTS");
    const other = await gql<{ openDoor: { token: string } }>(OPEN_ON, { variables: { slug: event.slug, pin, device: "tablet-bbbb2" }, ip });
    expect(other.body.data!.openDoor.token).toBeTruthy();
  });
});

describe("the door's security rules over GraphQL", () => {
  /** A night with its door opened by PIN, as a phone at that door would. */
  async function openedNight(ip: string) {
    const n = await night();
    const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens: n.tokens, variables: { eventId: n.event.id } })).body.data!.rotateDoorPin.pin;
    const session = (await gql<{ openDoor: { token: string } }>(OPEN, { variables: { slug: n.event.slug, pin }, ip })).body.data!.openDoor.token;
    return { ...n, session };
  }

  it("a scan id replayed by another organizer's door judges that door's own ticket and never answers with the first event's holder (decision 149)", async () => {
    const a = await openedNight("198.51.100.70");
    const b = await openedNight("198.51.100.71");
    await (await getDb()).update(issuedProducts).set({ holderName: "Bruno Díaz" }).where(eq(issuedProducts.eventId, b.event.id));

    const redeem = (n: typeof a, ticket: number, scanId: string, door: string) =>
      gql<{ redeemProduct: Answer }>(REDEEM, { variables: { input: { eventSlug: n.event.slug, doorSession: n.session, code: qrPayloadFor(n.tickets[ticket].code), scanId, door, deviceId: door } } });
    expect((await redeem(a, 0, "shared-1", "Puerta A")).body.data!.redeemProduct).toMatchObject({ outcome: "admitted", holderName: "Sofía Peña" });
    const replayed = await redeem(b, 0, "shared-1", "Puerta B");
    expect(replayed.body.errors).toBeUndefined();
    expect(replayed.body.data!.redeemProduct).toMatchObject({ scanId: "shared-1", outcome: "admitted", admitted: true, holderName: "Bruno Díaz", redeemedDoor: "Puerta B" });
    expect(JSON.stringify(replayed.body)).not.toContain("Sofía");

    // The other way round, through an offline queue: B's scan id first does not block A's real ticket.
    const SYNC_NAMES = `mutation($input: SyncDoorScansInput!) { syncDoorScans(input: $input) { scanId outcome holderName } }`;
    const sync = (n: typeof a, ticket: number) =>
      gql<{ syncDoorScans: { scanId: string; outcome: string; holderName: string | null }[] }>(SYNC_NAMES, {
        variables: { input: { eventSlug: n.event.slug, doorSession: n.session, deviceId: "phone", scans: [{ scanId: "shared-2", code: qrPayloadFor(n.tickets[ticket].code), scannedAt: new Date(Date.now() - 60_000).toISOString(), acceptedOffline: true }] } },
      });
    expect((await sync(b, 1)).body.data!.syncDoorScans).toEqual([{ scanId: "shared-2", outcome: "admitted", holderName: "Bruno Díaz" }]);
    expect((await sync(a, 1)).body.data!.syncDoorScans).toEqual([{ scanId: "shared-2", outcome: "admitted", holderName: "Sofía Peña" }]);
    const statuses = await (await getDb()).select({ status: issuedProducts.status }).from(issuedProducts).where(inArray(issuedProducts.id, [a.tickets[0].id, a.tickets[1].id, b.tickets[0].id, b.tickets[1].id]));
    expect(statuses.map((t) => t.status)).toEqual(["redeemed", "redeemed", "redeemed", "redeemed"]);
  });

  it("syncDoorScans refuses scans dated 1970, year 1 or -271821 with a typed error at their index, and judges the device's other scans (decision 149)", async () => {
    const { event, tickets, session } = await openedNight("198.51.100.72");
    const input = {
      eventSlug: event.slug,
      doorSession: session,
      deviceId: "phone-reset",
      scans: [
        { scanId: "r-0", code: qrPayloadFor(tickets[0].code), scannedAt: "1970-01-01T00:00:00Z", acceptedOffline: true },
        { scanId: "r-1", code: qrPayloadFor(tickets[0].code), scannedAt: "0001-01-01T00:00:00Z", acceptedOffline: true },
        { scanId: "r-2", code: qrPayloadFor(tickets[0].code), scannedAt: "-271821-04-20T00:00:00Z", acceptedOffline: true },
        { scanId: "r-3", code: qrPayloadFor(tickets[1].code), scannedAt: new Date(Date.now() - 60_000).toISOString(), acceptedOffline: true },
        { scanId: "r-4", code: qrPayloadFor(tickets[0].code), scannedAt: "-271821-04-19T00:00:00Z", acceptedOffline: true },
      ],
    };
    // Twice: the second run takes the compiled path (decision 138) and must answer the same.
    for (let run = 0; run < 2; run++) {
      const synced = await gql<{ syncDoorScans: (Answer | null)[] }>(SYNC, { variables: { input } });
      expect(synced.status).toBe(200);
      expect(synced.body.data!.syncDoorScans.map((a) => a?.outcome ?? null)).toEqual([null, null, null, "admitted", null]);
      const errors = (synced.body.errors ?? []).map((e) => ({ path: e.path, code: e.extensions?.code, reason: e.extensions?.reason, fieldErrors: e.extensions?.fieldErrors }));
      expect(errors.sort((x, y) => Number(x.path![1]) - Number(y.path![1]))).toEqual([
        { path: ["syncDoorScans", 0], code: "BAD_USER_INPUT", reason: "SCAN_TIME_BEFORE_DOOR_OPENED", fieldErrors: { scannedAt: [expect.stringContaining("anterior a la apertura de la puerta")] } },
        { path: ["syncDoorScans", 1], code: "BAD_USER_INPUT", reason: "SCAN_TIME_BEFORE_DOOR_OPENED", fieldErrors: { scannedAt: [expect.any(String)] } },
        { path: ["syncDoorScans", 2], code: "BAD_USER_INPUT", reason: "SCAN_TIME_BEFORE_DOOR_OPENED", fieldErrors: { scannedAt: [expect.any(String)] } },
        { path: ["syncDoorScans", 4], code: "BAD_USER_INPUT", reason: "SCAN_TIME_INVALID", fieldErrors: { scannedAt: ["La hora del escaneo no es una fecha válida."] } },
      ]);
    }
    // None of the refused scans let the first ticket in.
    const [first] = await (await getDb()).select().from(issuedProducts).where(eq(issuedProducts.id, tickets[0].id));
    expect(first.status).toBe("redeemable");
  });
});

const LIVE = `subscription($slug: String!) { liveNight(eventSlug: $slug) { eventName sold entered ticketTypes { label sold entered } doors { label entered } latestScans { door outcome holderName } } }`;

type Live = { eventName: string; sold: number; entered: number; ticketTypes: { label: string; sold: number; entered: number }[]; doors: { label: string; entered: number }[]; latestScans: { door: string; outcome: string }[] };

/** Reads server-sent events from a streaming response, one `data:` payload at a time. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return async function next(): Promise<{ data?: { liveNight: Live }; errors?: unknown[] }> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const chunk = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = chunk.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("");
        if (data) return JSON.parse(data);
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("stream ended");
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

describe("liveNight subscription (server-sent events)", () => {
  it("the team sees the night now and again after each scan; a PIN session or a stranger cannot watch", async () => {
    const { event, tickets, tokens } = await night();
    const controller = new AbortController();
    const response = await graphqlAction({
      request: new Request(GRAPHQL_URL, {
        method: "POST",
        signal: controller.signal,
        headers: { "content-type": "application/json", accept: "text/event-stream", cookie: cookieHeader(tokens) },
        body: JSON.stringify({ query: LIVE, variables: { slug: event.slug } }),
      }),
      params: {},
      context: {},
    } as never);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const next = sseReader(response.body!);
    const first = await next();
    expect(first.data!.liveNight).toMatchObject({ eventName: event.name, sold: 3, entered: 0, ticketTypes: [{ label: "General", sold: 3, entered: 0 }] });

    const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens, variables: { eventId: event.id } })).body.data!.rotateDoorPin.pin;
    await gql(REDEEM, { variables: { input: { eventSlug: event.slug, staffPin: pin, code: qrPayloadFor(tickets[0].code), door: "Puerta 2" } }, ip: "198.51.100.64" });
    const second = await next();
    expect(second.data!.liveNight).toMatchObject({ sold: 3, entered: 1, doors: [{ label: "Puerta 2", entered: 1 }] });
    expect(second.data!.liveNight.latestScans[0]).toMatchObject({ door: "Puerta 2", outcome: "admitted" });
    controller.abort();

    const session = (await gql<{ openDoor: { token: string } }>(OPEN, { variables: { slug: event.slug, pin }, ip: "198.51.100.64" })).body.data!.openDoor.token;
    const byPin = await gql(`query($slug: String!) { liveNight(eventSlug: $slug) { entered } }`, { variables: { slug: event.slug }, headers: { cookie: `door-${event.slug}=${session}` } });
    expect(errorCode(byPin)).toBe("UNAUTHENTICATED");
    const other = await night();
    expect(errorCode(await gql(`query($slug: String!) { liveNight(eventSlug: $slug) { entered } }`, { variables: { slug: event.slug }, tokens: other.tokens }))).toBe("FORBIDDEN");
  });
});

const MANIFEST = `query($slug: String!, $session: String, $since: String) { doorManifest(eventSlug: $slug, doorSession: $session, since: $since) { payload signature } }`;

describe("doorManifest", () => {
  it("is signed, carries keyed hashes and never the codes, and refreshes incrementally", async () => {
    const { createHmac, webcrypto } = await import("node:crypto");
    const { manifestPublicKey } = await import("#server/door/manifest");
    const { event, tickets, tokens } = await night();
    // Sold an hour ago: an incremental refresh now carries only what changes from here on.
    await (await getDb()).update(issuedProducts).set({ createdAt: new Date(Date.now() - 3600_000) }).where(eq(issuedProducts.eventId, event.id));
    const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens, variables: { eventId: event.id } })).body.data!.rotateDoorPin.pin;
    const session = (await gql<{ openDoor: { token: string } }>(OPEN, { variables: { slug: event.slug, pin }, ip: "198.51.100.65" })).body.data!.openDoor.token;

    const full = (await gql<{ doorManifest: { payload: string; signature: string } }>(MANIFEST, { variables: { slug: event.slug, session } })).body.data!.doorManifest;
    const key = await webcrypto.subtle.importKey("jwk", manifestPublicKey(), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    const verify = (payload: string, signature: string) => webcrypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, Buffer.from(signature, "base64url"), new TextEncoder().encode(payload));
    expect(await verify(full.payload, full.signature)).toBe(true);
    expect(await verify(full.payload.replace("redeemable", "redeemed"), full.signature)).toBe(false);

    const manifest = JSON.parse(full.payload);
    expect(manifest).toMatchObject({ v: 2, eventId: event.id, full: true, shortCodes: { alg: "PBKDF2-SHA256" } });
    expect(manifest.entries).toHaveLength(3);
    for (const t of tickets) expect(full.payload).not.toContain(t.code);
    const hash = createHmac("sha256", Buffer.from(manifest.key, "base64url")).update(tickets[0].code).digest().subarray(0, 16).toString("base64url");
    expect(manifest.entries.find((e: { k: string }) => e.k === hash)).toMatchObject({ n: "Sofía Peña", t: "General", st: "redeemable" });

    await gql(REDEEM, { variables: { input: { eventSlug: event.slug, doorSession: session, code: qrPayloadFor(tickets[0].code), door: "Puerta 4" } } });
    const next = JSON.parse((await gql<{ doorManifest: { payload: string } }>(MANIFEST, { variables: { slug: event.slug, session, since: manifest.cursor } })).body.data!.doorManifest.payload);
    expect(next.full).toBe(false);
    expect(next.entries).toEqual([expect.objectContaining({ k: hash, st: "redeemed", door: "Puerta 4" })]);

    // Two phones that let the same ticket in offline: every door's next manifest carries the conflict.
    const code = qrPayloadFor(tickets[1].code);
    const offlineScan = (device: string, minutesAgo: number) => ({
      eventSlug: event.slug,
      doorSession: session,
      deviceId: device,
      scans: [{ scanId: `${device}:1`, code, scannedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(), acceptedOffline: true, door: device === "a" ? "Puerta 1" : "Puerta 2" }],
    });
    await gql(SYNC, { variables: { input: offlineScan("a", 6) } });
    await gql(SYNC, { variables: { input: offlineScan("b", 3) } });
    const withConflict = JSON.parse((await gql<{ doorManifest: { payload: string } }>(MANIFEST, { variables: { slug: event.slug, session, since: next.cursor } })).body.data!.doorManifest.payload);
    expect(withConflict.conflicts).toEqual([expect.objectContaining({ holderName: "Sofía Peña", door: "Puerta 1" })]);

    const other = await night();
    expect(errorCode(await gql(MANIFEST, { variables: { slug: other.event.slug, session } }))).toBe("UNAUTHENTICATED");
  });
});
