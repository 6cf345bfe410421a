/**
 * The live view's stream over server-sent events keeps checking who watches (decision 147): a member taken
 * off the team, moved to a role without doors, or logged out stops getting the night (holder names included),
 * and one account cannot hold more than LIVE_STREAMS_PER_ACCOUNT streams open.
 */
import { tonightWithPaidTickets } from "#tests/support/tonight";
import { describe, expect, it } from "vitest";
import { startSession, type Tokens } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { LIVE_ACCESS_ENDED, LIVE_SESSION_ENDED, LIVE_STREAMS_PER_ACCOUNT, TOO_MANY_LIVE_STREAMS } from "#server/door/live";
import { changeMemberRole, removeMember } from "#server/team/team";
import { qrPayloadFor } from "#server/tickets/qr";
import { createTestUser, withSecondFactor } from "#tests/support/context";
import { GRAPHQL_URL, cookieHeader, gql } from "#tests/support/graphql";
import { action as graphqlAction } from "#app/routes/api.graphql";

const HOLDER = "Valentina Quiroga";
const LIVE = `subscription($slug: String!) { liveNight(eventSlug: $slug) { entered latestScans { door holderName } } }`;
const ROTATE = `mutation($eventId: ID!) { rotateDoorPin(eventId: $eventId) { pin } }`;
const REDEEM = `mutation($input: RedeemProductInput!) { redeemProduct(input: $input) { outcome } }`;

let ip = 0;
const freshIp = () => `198.51.100.${150 + ++ip}`;

/** Tonight's event with three paid tickets, its door PIN, and an operator (a member whose role works doors) signed in. */
async function nightWithOperator() {
  const { producer, db, event, tickets, tokens: producerTokens } = await tonightWithPaidTickets({ payer: { firstName: "Valentina", lastName: "Quiroga", email: "valen@example.com", documentType: "dni", documentNumber: "30123457", phoneNumber: "+54 11 5555-1234" } });
  const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens: producerTokens, variables: { eventId: event.id } })).body.data!.rotateDoorPin.pin;
  const operator = await createTestUser();
  await db.insert(memberships).values({ organizationId: producer.organization.id, userId: operator.id, role: "operator" });
  const operatorTokens = await startSession(db, operator, new Date());
  let scanned = 0;
  /** A scan at the door: the live view recomputes and every open stream gets an update. */
  const scan = async () => {
    const answer = await gql<{ redeemProduct: { outcome: string } }>(REDEEM, { variables: { input: { eventSlug: event.slug, staffPin: pin, code: qrPayloadFor(tickets[scanned++].code), door: "Puerta 1" } }, ip: freshIp() });
    expect(answer.body.data!.redeemProduct.outcome).toBe("admitted");
  };
  return { producer, event, operator, operatorTokens, scan };
}

type LiveEvent = { data?: { liveNight: { entered: number; latestScans: { holderName: string | null }[] } } | null; errors?: { message: string; extensions?: { code?: string } }[] };

/** Opens the subscription as a browser does (cookies, `Accept: text/event-stream`) and reads it event by event. */
async function watch(tokens: Tokens, slug: string) {
  const controller = new AbortController();
  const response = await graphqlAction({
    request: new Request(GRAPHQL_URL, {
      method: "POST",
      signal: controller.signal,
      headers: { "content-type": "application/json", accept: "text/event-stream", cookie: cookieHeader(tokens) },
      body: JSON.stringify({ query: LIVE, variables: { slug } }),
    }),
    params: {},
    context: {},
  } as never);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  /** Everything the stream carried, raw: what must not leak is looked for here. */
  let raw = "";
  let completed = false;
  /** The next `next` event's payload, or null once the stream completes or closes. */
  async function next(): Promise<LiveEvent | null> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const chunk = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: complete$/m.test(chunk)) {
          completed = true;
          return null;
        }
        const data = chunk.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("");
        if (data) return JSON.parse(data) as LiveEvent;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return null;
      const text = decoder.decode(value, { stream: true });
      raw += text;
      buffer += text;
    }
  }
  return { next, close: () => controller.abort(), raw: () => raw, completed: () => completed };
}

describe("a live stream ends when its viewer's access does", () => {
  it("a member removed from the team stops getting the night, holder names included", async () => {
    const { producer, event, operator, operatorTokens, scan } = await nightWithOperator();
    const stream = await watch(operatorTokens, event.slug);
    expect((await stream.next())!.data!.liveNight.entered).toBe(0);
    await scan();
    const second = await stream.next();
    expect(second!.data!.liveNight.latestScans[0].holderName).toBe(HOLDER);
    const seenBefore = stream.raw().length;

    await removeMember(producer.ctx, { organizationId: producer.organization.id, userId: operator.id });
    await scan();
    const last = await stream.next();
    expect(last!.data ?? null).toBeNull();
    expect(last!.errors![0]).toMatchObject({ message: LIVE_ACCESS_ENDED, extensions: { code: "FORBIDDEN" } });
    expect(await stream.next()).toBeNull();
    expect(stream.completed()).toBe(true);
    expect(stream.raw().slice(seenBefore)).not.toContain(HOLDER);
    expect(stream.raw().slice(seenBefore)).not.toContain('"entered":2');
  });

  it("so does a member whose role changes to one that does not work doors", async () => {
    const { producer, event, operator, operatorTokens, scan } = await nightWithOperator();
    const stream = await watch(operatorTokens, event.slug);
    await stream.next();
    await changeMemberRole(await withSecondFactor(producer.ctx), { organizationId: producer.organization.id, userId: operator.id, role: "marketing" });
    await scan();
    const last = await stream.next();
    expect(last!.errors![0].extensions!.code).toBe("FORBIDDEN");
    expect(await stream.next()).toBeNull();
    expect(stream.raw()).not.toContain(HOLDER);
  });

  it("and a viewer who logged out", async () => {
    const { event, operatorTokens, scan } = await nightWithOperator();
    const stream = await watch(operatorTokens, event.slug);
    await stream.next();
    expect((await gql(`mutation { logout { email } }`, { tokens: operatorTokens })).body.errors).toBeUndefined();
    await scan();
    const last = await stream.next();
    expect(last!.errors![0]).toMatchObject({ message: LIVE_SESSION_ENDED, extensions: { code: "UNAUTHENTICATED" } });
    expect(await stream.next()).toBeNull();
    expect(stream.raw()).not.toContain(HOLDER);
  });
});

describe("live streams per account", () => {
  it(`one account holds at most ${LIVE_STREAMS_PER_ACCOUNT} open; the next is refused with TOO_MANY_REQUESTS until one closes`, async () => {
    const { event, operator, operatorTokens, producer } = await nightWithOperator();
    // A subscription asked for as JSON is answered 406 and never streams: it takes no place.
    for (let i = 0; i <= LIVE_STREAMS_PER_ACCOUNT; i++) {
      expect((await gql(LIVE, { tokens: operatorTokens, variables: { slug: event.slug } })).status).toBe(406);
    }
    const streams = [];
    for (let i = 0; i < LIVE_STREAMS_PER_ACCOUNT; i++) {
      // Several sign-ins of the same account (tabs, phones) count together.
      const tokens = i % 2 ? operatorTokens : await startSession(await getDb(), operator, new Date());
      const stream = await watch(tokens, event.slug);
      expect((await stream.next())!.data!.liveNight.entered).toBe(0);
      streams.push(stream);
    }
    const refused = await watch(operatorTokens, event.slug);
    const answer = await refused.next();
    expect(answer!.data ?? null).toBeNull();
    expect(answer!.errors![0]).toMatchObject({ message: TOO_MANY_LIVE_STREAMS, extensions: { code: "TOO_MANY_REQUESTS" } });

    // Another account of the same team is not affected.
    const producerStream = await watch(await startSession(await getDb(), producer.user, new Date()), event.slug);
    expect((await producerStream.next())!.data!.liveNight.entered).toBe(0);
    producerStream.close();

    // Closing one frees its place.
    streams.pop()!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await watch(operatorTokens, event.slug);
    expect((await again.next())!.data!.liveNight.entered).toBe(0);
    again.close();
    for (const stream of streams) stream.close();
  });
});
