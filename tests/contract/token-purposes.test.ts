/**
 * Each signed token opens only the door it was made for (docs/authorization.md, "Tokens y para qué sirve cada
 * uno"; decision 146). Over HTTP: a token that is not an access token of a live session, sent as
 * `x-access-token` (or as the `at` cookie), leaves the caller anonymous.
 */
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { verificationToken } from "#server/accounts/email-verification";
import { createSignInLink } from "#server/accounts/sign-in-link";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { authSecret } from "#server/env";
import { ANONYMOUS } from "#server/context";
import { ctxAs } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";
import { lastSignInToken } from "#tests/support/mailbox";

const CURRENT = `query { current { email } }`;
const DOOR_PIN = `query($eventId: ID!) { doorPin(eventId: $eventId) { pin } }`;
const ROTATE = `mutation($eventId: ID!) { rotateDoorPin(eventId: $eventId) { pin } }`;
const OPEN = `mutation($slug: String!, $pin: String!) { openDoor(eventSlug: $slug, staffPin: $pin) { token } }`;
const INVITE = `mutation($org: ID!, $email: String!) { inviteMember(organizationId: $org, email: $email, role: "operator") { __typename } }`;
const LOGOUT = `mutation { logout { email } }`;

let ip = 0;
const freshIp = () => `198.51.100.${100 + ++ip}`;

/** A producer whose event has a door PIN: what a token that authenticated could read (the PIN) and do (invite). */
async function producerWithPin() {
  const producer = await createProducer();
  const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { days: 0 });
  const tokens = await startSession(await getDb(), producer.user, new Date());
  const pin = (await gql<{ rotateDoorPin: { pin: string } }>(ROTATE, { tokens, variables: { eventId: event.id } })).body.data!.rotateDoorPin.pin;
  return { ...producer, event, tokens, pin };
}

/** Nothing of the account comes back: the caller is nobody. */
async function expectNobody(token: string, p: Awaited<ReturnType<typeof producerWithPin>>) {
  for (const send of [{ tokens: { accessToken: token } }, { cookies: { accessToken: token } }]) {
    const current = await gql<{ current: unknown }>(CURRENT, send);
    expect(errorCode(current)).toBe("UNAUTHENTICATED");
    expect(current.body.data?.current ?? null).toBeNull();
    const pin = await gql(DOOR_PIN, { ...send, variables: { eventId: p.event.id } });
    expect(errorCode(pin)).toBe("UNAUTHENTICATED");
    expect(JSON.stringify(pin.body)).not.toContain(p.pin);
    const invite = await gql(INVITE, { ...send, variables: { org: p.organization.id, email: `nuevo-${ip}@example.com` } });
    expect(errorCode(invite)).toBe("UNAUTHENTICATED");
  }
}

describe("a token works only for its own purpose", () => {
  it("the email-verification link's token is not a sign-in: as x-access-token it reads nothing and invites nobody", async () => {
    const p = await producerWithPin();
    // The link is sent at registration and lives 24 hours.
    await expectNobody(await verificationToken(p.user, new Date()), p);
    // The account's real session still works, and still reads the PIN.
    expect((await gql<{ doorPin: { pin: string } }>(DOOR_PIN, { tokens: p.tokens, variables: { eventId: p.event.id } })).body.data!.doorPin.pin).toBe(p.pin);
  });

  it("neither does a sign-in link's token, a refresh token or a door session", async () => {
    const p = await producerWithPin();
    await createSignInLink(await ctxAs(ANONYMOUS, new Date(), freshIp()), { email: p.user.email });
    await expectNobody(await lastSignInToken(p.user.email), p);
    await expectNobody(p.tokens.refreshToken, p);
    const door = await gql<{ openDoor: { token: string } }>(OPEN, { variables: { slug: p.event.slug, pin: p.pin }, ip: freshIp() });
    await expectNobody(door.body.data!.openDoor.token, p);
  });

  it("an access-shaped token with no session (signed with the app's secret, no sid) is refused", async () => {
    const p = await producerWithPin();
    const iat = Math.floor(Date.now() / 1000);
    const sessionless = await new SignJWT({ email: p.user.email, roles: ["producer"] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(p.user.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(new TextEncoder().encode(authSecret()));
    await expectNobody(sessionless, p);
  });

  it("an access token of a session that logged out is refused", async () => {
    const p = await producerWithPin();
    const other = await startSession(await getDb(), p.user, new Date());
    expect((await gql(LOGOUT, { tokens: { accessToken: other.accessToken } })).body.errors).toBeUndefined();
    await expectNobody(other.accessToken, p);
  });
});
