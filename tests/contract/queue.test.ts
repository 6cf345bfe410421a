import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { runAdmissionTick } from "#server/queue/admitter";
import { drawCommitment } from "#server/queue/draw";
import { queueMemory } from "#server/queue/memory";
import { createTestUser } from "#tests/support/context";
import { createEventWithTickets, createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const QUEUE_FIELDS = "eventId enabled opensAt admissionMinutes admitPerMinute pace paused soldOut drawCommitment drawSeed waiting admitted bought left total";
const PLACE_FIELDS = "id eventSlug status closedReason position ahead estimatedWaitSeconds admissionExpiresAt opensAt drawCommitment drawSeed paused refreshSeconds";
const SET = `mutation($input: SetEventQueueInput!) { setEventQueue(input: $input) { ${QUEUE_FIELDS} } }`;
const GET = `query($eventId: ID!) { eventQueue(eventId: $eventId) { ${QUEUE_FIELDS} } }`;
const PAUSE = `mutation($eventId: ID!) { pauseEventQueue(eventId: $eventId) { paused } }`;
const RESUME = `mutation($eventId: ID!) { resumeEventQueue(eventId: $eventId) { paused } }`;
const JOIN = `mutation($slug: String!) { joinQueue(eventSlug: $slug) { ${PLACE_FIELDS} } }`;
const PLACE = `query($slug: String!) { queuePlace(eventSlug: $slug) { ${PLACE_FIELDS} } }`;
const CREATE_ORDER = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { id status } } }`;
const PREVIEW = `query($input: PreviewOrderInput!) { previewOrder(input: $input) { total } }`;
const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

type Queue = { eventId: string; enabled: boolean; pace: string; paused: boolean; drawCommitment: string; drawSeed: string | null; waiting: number; admitted: number; total: number; admissionMinutes: number; admitPerMinute: number | null };
type Place = { id: string; status: string; position: number | null; ahead: number | null; drawCommitment: string; drawSeed: string | null; admissionExpiresAt: string | null; refreshSeconds: number; closedReason: string | null };

async function tokensOf(user: Awaited<ReturnType<typeof createTestUser>>) {
  return startSession(await getDb(), user, new Date());
}

describe("virtual queue over GraphQL", () => {
  it("the organizer sets it up; a buyer joins, is refused with QUEUE_REQUIRED until admitted, then buys", async () => {
    const { event, tickets, user: organizerUser } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }]);
    const organizer = await tokensOf(organizerUser);
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();

    // Only the event's organization may set it; bad input gets field messages.
    const stranger = await createProducer();
    const refused = await gql(SET, { tokens: await tokensOf(stranger.user), variables: { input: { eventId: event.id, enabled: true, opensAt: inAnHour } } });
    expect(errorCode(refused)).toBe("FORBIDDEN");
    expect(errorCode(await gql(SET, { variables: { input: { eventId: event.id, enabled: true, opensAt: inAnHour } } }))).toBe("UNAUTHENTICATED");
    const bad = await gql(SET, { tokens: organizer, variables: { input: { eventId: event.id, enabled: true, opensAt: inAnHour, admissionMinutes: 0 } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors?.[0].extensions).toMatchObject({ fieldErrors: { admissionMinutes: ["Tiene que ser al menos 1 minuto."] } });

    const set = await gql<{ setEventQueue: Queue }>(SET, { tokens: organizer, variables: { input: { eventId: event.id, enabled: true, opensAt: inAnHour } } });
    expect(set.body.errors).toBeUndefined();
    const queue = set.body.data!.setEventQueue;
    expect(queue).toMatchObject({ enabled: true, pace: "AUTOMATIC", admitPerMinute: null, admissionMinutes: 10, paused: false, drawSeed: null, total: 0 });
    expect(queue.drawCommitment).toMatch(/^[0-9a-f]{64}$/);

    // A buyer: signed in to join; joining again is the same place.
    const buyer = await tokensOf(await createTestUser());
    expect(errorCode(await gql(JOIN, { variables: { slug: event.slug } }))).toBe("UNAUTHENTICATED");
    const joined = await gql<{ joinQueue: Place }>(JOIN, { tokens: buyer, variables: { slug: event.slug } });
    expect(joined.body.errors).toBeUndefined();
    const place = joined.body.data!.joinQueue;
    expect(place).toMatchObject({ status: "WAITING", position: null, ahead: null, drawSeed: null, drawCommitment: queue.drawCommitment });
    expect(place.refreshSeconds).toBeGreaterThan(0);
    expect((await gql<{ joinQueue: Place }>(JOIN, { tokens: buyer, variables: { slug: event.slug } })).body.data!.joinQueue.id).toBe(place.id);
    expect((await gql<{ queuePlace: Place }>(PLACE, { tokens: buyer, variables: { slug: event.slug } })).body.data!.queuePlace.id).toBe(place.id);
    expect((await gql<{ queuePlace: Place | null }>(PLACE, { tokens: organizer, variables: { slug: event.slug } })).body.data!.queuePlace).toBeNull();

    // Not admitted: every way to buy answers QUEUE_REQUIRED with the event's slug.
    const order = { eventSlug: event.slug, items: [{ ticketId: tickets.General.id, qty: 1 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" };
    for (const [query, variables] of [
      [CREATE_ORDER, { input: order }],
      [PREVIEW, { input: { eventSlug: event.slug, items: order.items } }],
    ] as const) {
      for (const tokens of [buyer, undefined]) {
        const answer = await gql(query, { tokens, variables });
        expect(errorCode(answer)).toBe("QUEUE_REQUIRED");
        expect(answer.body.errors?.[0].extensions).toMatchObject({ reason: event.slug });
        expect(answer.body.errors?.[0].message).toContain("fila virtual");
      }
    }

    // Paused and resumed by the organizer.
    expect((await gql<{ pauseEventQueue: { paused: boolean } }>(PAUSE, { tokens: organizer, variables: { eventId: event.id } })).body.data!.pauseEventQueue.paused).toBe(true);
    expect((await gql<{ resumeEventQueue: { paused: boolean } }>(RESUME, { tokens: organizer, variables: { eventId: event.id } })).body.data!.resumeEventQueue.paused).toBe(false);
    expect(errorCode(await gql(PAUSE, { tokens: buyer, variables: { eventId: event.id } }))).toBe("FORBIDDEN");

    // The opening moves to now: the admitter draws and admits; the seed is revealed and matches the commitment.
    const now = new Date().toISOString();
    await gql(SET, { tokens: organizer, variables: { input: { eventId: event.id, enabled: true, opensAt: now, admitPerMinute: 100 } } });
    await runAdmissionTick(await getDb(), new Date(Date.now() + 1000));
    await queueMemory.settled(event.id);
    const admitted = (await gql<{ queuePlace: Place }>(PLACE, { tokens: buyer, variables: { slug: event.slug } })).body.data!.queuePlace;
    expect(admitted).toMatchObject({ status: "ADMITTED", position: 1, ahead: 0 });
    expect(admitted.admissionExpiresAt).not.toBeNull();
    expect(drawCommitment(admitted.drawSeed!)).toBe(queue.drawCommitment);

    const bought = await gql<{ createOrder: { billingId: string } }>(CREATE_ORDER, { tokens: buyer, variables: { input: order } });
    expect(bought.body.errors).toBeUndefined();
    // Anonymous (no account, no admission) is still refused.
    expect(errorCode(await gql(CREATE_ORDER, { variables: { input: order } }))).toBe("QUEUE_REQUIRED");

    const counts = (await gql<{ eventQueue: Queue }>(GET, { tokens: organizer, variables: { eventId: event.id } })).body.data!.eventQueue;
    expect(counts).toMatchObject({ pace: "PER_MINUTE", admitPerMinute: 100, admitted: 1, waiting: 0, total: 1 });
    expect(counts.drawSeed).toBe(admitted.drawSeed);
    expect(errorCode(await gql(GET, { tokens: buyer, variables: { eventId: event.id } }))).toBe("FORBIDDEN");
  });

  it("joining an event without a queue is NOT_FOUND and its place is null", async () => {
    const { event } = await createEventWithTickets();
    const buyer = await tokensOf(await createTestUser());
    expect(errorCode(await gql(JOIN, { tokens: buyer, variables: { slug: event.slug } }))).toBe("NOT_FOUND");
    expect((await gql<{ queuePlace: Place | null }>(PLACE, { tokens: buyer, variables: { slug: event.slug } })).body.data!.queuePlace).toBeNull();
  });
});
