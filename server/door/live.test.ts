import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { removeMember } from "#server/organizations/team";
import { actorFor, createTestUser, ctxAs, sessionTokensFor } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { LIVE_ACCESS_ENDED, openLiveNight } from "./live";

/** An operator of tonight's event, acting from a real sign-in (a session id, as every request's actor has). */
async function operatorOfTonight() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0 });
  const operator = await createTestUser();
  await (await getDb()).insert(memberships).values({ organizationId: producer.organization.id, userId: operator.id, role: "operator" });
  const { sessionId } = await sessionTokensFor(operator.id);
  const actor = actorFor(operator);
  if (actor.kind !== "user") throw new Error("unreachable");
  const ctx = await ctxAs({ ...actor, sessionId });
  return { producer, event, operator, ctx };
}

describe("openLiveNight", () => {
  it("checks access again on its own, with nothing happening at the door: a removed member's stream ends", async () => {
    const { producer, event, operator, ctx } = await operatorOfTonight();
    const stream = await openLiveNight(ctx, event.slug, { recheckMs: 100 });
    expect((await stream.next()).value).toMatchObject({ event: { slug: event.slug }, entered: 0 });
    const waiting = stream.next().then(
      (step) => ({ step }),
      (error: unknown) => ({ error }),
    );
    await removeMember(producer.ctx, { organizationId: producer.organization.id, userId: operator.id });
    // No scan, no update: only the periodic check can end it.
    expect(await waiting).toEqual({ error: expect.objectContaining({ code: "FORBIDDEN", message: LIVE_ACCESS_ENDED }) });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it("ends at once when the phone goes away, even while waiting for an update", async () => {
    const { event, ctx } = await operatorOfTonight();
    const controller = new AbortController();
    const stream = await openLiveNight(ctx, event.slug, { signal: controller.signal });
    await stream.next();
    const waiting = stream.next();
    controller.abort();
    expect(await waiting).toEqual({ value: undefined, done: true });

    const other = await openLiveNight(ctx, event.slug);
    await other.next();
    const pending = other.next();
    await other.return!();
    expect(await pending).toEqual({ value: undefined, done: true });
  });
});
