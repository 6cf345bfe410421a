import crypto from "node:crypto";
import { recordAudit } from "#server/organizations/audit";
import { and, asc, eq, max, ne } from "drizzle-orm";
import { SignJWT, jwtVerify } from "jose";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { decryptSecret, encryptSecret } from "#server/auth/encryption";
import { takeAttempt } from "#server/auth/rate-limit";
import { randomDigits, randomToken } from "#server/auth/tokens";
import { doorPins, eventDates, events } from "#server/db/schema";
import { authSecret } from "#server/env";
import { Conflict, Invalid, NotFound, TooManyRequests, Unauthenticated } from "#server/errors";
import { requireEvent, requireEventBySlug } from "#server/events/events";
import { requireCapability } from "#server/organizations/permissions";

/** Digits of a door PIN: 10^8 combinations against at most 100 wrong tries per event every 15 minutes (docs/door.md). */
export const DOOR_PIN_LENGTH = 8;
/** A PIN session lasts until this long after the event's last date ends. */
export const DOOR_SESSION_GRACE_MS = 6 * 3600 * 1000;
/**
 * Wrong PINs allowed in the rate-limit window (15 minutes), decision 155:
 * per device and event (the door-device cookie), per address and event, per
 * address across every event (a venue's shared Wi-Fi: high, so a neighbour's
 * typos only slow it) and per event from anywhere (what bounds guessing).
 */
export const DOOR_PIN_LIMITS = { device: 10, ip: 30, address: 60, event: 100 } as const;

export const PIN_LOCKED_MESSAGE = "Hubo demasiados intentos con un PIN equivocado. Esperá 15 minutos y volvé a probar, o pedile el PIN a quien organiza.";
export const WRONG_PIN_MESSAGE = "El PIN no es correcto. Pedíselo a quien organiza el evento.";

/** The cookie a door device keeps its id in (the door page sets it; GraphQL reads it when no deviceId is sent). */
export const DOOR_DEVICE_COOKIE = "door-device";

/** Who is working a door: a member signed in, or staff who opened it with the event's PIN. */
export interface DoorAccess {
  event: { id: string; organizationId: string; name: string; slug: string };
  userId: string | null;
  pinSessionId: string | null;
}

// ---------------------------------------------------------------------------
// The organizer's side: read, rotate and revoke (owners and admins).

export interface DoorPinView {
  pin: string;
  createdAt: Date;
}

export async function doorPinOf(ctx: Ctx, eventId: string): Promise<DoorPinView | null> {
  await requireEvent(ctx, eventId, "door:pins");
  const [row] = await ctx.db.select().from(doorPins).where(eq(doorPins.eventId, eventId));
  return row ? { pin: decryptSecret(row.pinEncrypted, "door-pins"), createdAt: row.createdAt } : null;
}

/** A new PIN for the event (the first one, or replacing the old one, whose door sessions end at once). */
export async function rotateDoorPin(ctx: Ctx, eventId: string): Promise<DoorPinView & { replaced: boolean }> {
  const event = await requireEvent(ctx, eventId, "door:pins");
  if (event.status === "deleted") throw new Conflict("El evento fue eliminado.");
  // Whether doors opened with an earlier PIN close now: the page says so only then.
  const [previous] = await ctx.db.select({ id: doorPins.id }).from(doorPins).where(eq(doorPins.eventId, eventId));
  const pin = randomDigits(DOOR_PIN_LENGTH);
  const values = { id: crypto.randomUUID(), eventId, pinEncrypted: encryptSecret(pin, "door-pins"), createdByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null, createdAt: ctx.now };
  await ctx.db
    .insert(doorPins)
    .values(values)
    .onConflictDoUpdate({ target: doorPins.eventId, set: { id: values.id, pinEncrypted: values.pinEncrypted, createdByUserId: values.createdByUserId, createdAt: values.createdAt } });
  await recordAudit(ctx.db, ctx, { organizationId: event.organizationId, action: "door.pin-rotate", targetId: eventId, data: { name: event.name } });
  return { pin, createdAt: ctx.now, replaced: Boolean(previous) };
}

/** No PIN any more: staff need a new one, and every door opened with the old one closes. */
export async function revokeDoorPin(ctx: Ctx, eventId: string): Promise<void> {
  const event = await requireEvent(ctx, eventId, "door:pins");
  const revoked = await ctx.db.delete(doorPins).where(eq(doorPins.eventId, eventId)).returning({ id: doorPins.id });
  if (revoked.length) await recordAudit(ctx.db, ctx, { organizationId: event.organizationId, action: "door.pin-revoke", targetId: eventId, data: { name: event.name } });
}

/** `/organizacion/staff-pin`: the organization's live events and their PINs. */
export async function listDoorPins(ctx: Ctx, organizationId: string) {
  await requireCapability(ctx, organizationId, "door:pins");
  const rows = await ctx.db
    .select({ id: events.id, name: events.name, slug: events.slug, lastEndsAt: max(eventDates.endsAt), pinEncrypted: doorPins.pinEncrypted, pinCreatedAt: doorPins.createdAt })
    .from(events)
    .leftJoin(eventDates, and(eq(eventDates.eventId, events.id), ne(eventDates.status, "deleted")))
    .leftJoin(doorPins, eq(doorPins.eventId, events.id))
    .where(and(eq(events.organizationId, organizationId), ne(events.status, "deleted")))
    .groupBy(events.id, doorPins.id)
    .orderBy(asc(events.name));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    lastEndsAt: r.lastEndsAt,
    finished: r.lastEndsAt !== null && r.lastEndsAt.getTime() + DOOR_SESSION_GRACE_MS < ctx.now.getTime(),
    pin: r.pinEncrypted ? decryptSecret(r.pinEncrypted, "door-pins") : null,
    pinCreatedAt: r.pinCreatedAt,
  }));
}

// ---------------------------------------------------------------------------
// The door's side.

/** The cookie a door device keeps its PIN session in, one per event (the web door and GraphQL both read it). */
export function doorSessionCookieName(slug: string): string {
  return `door-${slug}`;
}

const pinSchema = z
  .string({ error: "Ingresá el PIN." })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().min(1, "Ingresá el PIN.").regex(/^\d{6,12}$/, "El PIN tiene solo números."));

const key = () => new TextEncoder().encode(authSecret());

/** The event a door screen is for (public facts only), or NotFound. */
export async function doorEvent(ctx: Ctx, slug: string) {
  const [event] = await ctx.db
    .select({ id: events.id, organizationId: events.organizationId, name: events.name, slug: events.slug, status: events.status })
    .from(events)
    .where(eq(events.slug, slug.toLowerCase()));
  if (!event || event.status === "deleted") throw new NotFound("No encontramos el evento.");
  return event;
}

async function sessionEnd(ctx: Ctx, eventId: string): Promise<Date | null> {
  const [row] = await ctx.db
    .select({ lastEndsAt: max(eventDates.endsAt) })
    .from(eventDates)
    .where(and(eq(eventDates.eventId, eventId), ne(eventDates.status, "deleted")));
  return row?.lastEndsAt ? new Date(row.lastEndsAt.getTime() + DOOR_SESSION_GRACE_MS) : null;
}

function pinMatches(stored: string, given: string): boolean {
  const a = crypto.createHash("sha256").update(decryptSecret(stored, "door-pins")).digest();
  const b = crypto.createHash("sha256").update(given).digest();
  return crypto.timingSafeEqual(a, b);
}

/** The counters a wrong PIN adds to (see DOOR_PIN_LIMITS): one event's mistakes never lock another event's door. */
export function doorPinKeys(eventId: string, ip?: string | null, deviceId?: string | null): { key: string; limit: number }[] {
  const keys: { key: string; limit: number }[] = [{ key: `door-pin:event:${eventId}`, limit: DOOR_PIN_LIMITS.event }];
  if (ip) {
    keys.push({ key: `door-pin:event-ip:${eventId}:${ip}`, limit: DOOR_PIN_LIMITS.ip });
    keys.push({ key: `door-pin:ip:${ip}`, limit: DOOR_PIN_LIMITS.address });
  }
  // The device id is the client's word: it can only narrow a lock, never widen what the other keys allow.
  if (deviceId && /^[A-Za-z0-9_-]{8,64}$/.test(deviceId)) keys.push({ key: `door-pin:device:${eventId}:${deviceId}`, limit: DOOR_PIN_LIMITS.device });
  return keys;
}

/**
 * Checks a PIN for one event, counting wrong ones per device, per address and per event
 * (a right PIN does not count). Answers the access it opens.
 */
export async function checkDoorPin(ctx: Ctx, input: { slug: string; pin: unknown; deviceId?: string | null }): Promise<{ access: DoorAccess; expiresAt: Date }> {
  const parsed = pinSchema.safeParse(input.pin);
  if (!parsed.success) throw new Invalid({ pin: [parsed.error.issues[0].message] }, parsed.error.issues[0].message);
  const event = await doorEvent(ctx, input.slug);
  const keys = doorPinKeys(event.id, ctx.ip, input.deviceId);
  let attempt: { release(): Promise<void> };
  try {
    attempt = await takeAttempt(ctx.db, keys, ctx.now);
  } catch (error) {
    if (error instanceof TooManyRequests) throw new TooManyRequests(PIN_LOCKED_MESSAGE);
    throw error;
  }
  const [stored] = await ctx.db.select().from(doorPins).where(eq(doorPins.eventId, event.id));
  if (!stored || !pinMatches(stored.pinEncrypted, parsed.data)) throw new Invalid({ pin: [WRONG_PIN_MESSAGE] }, WRONG_PIN_MESSAGE);
  await attempt.release();
  const expiresAt = await sessionEnd(ctx, event.id);
  if (!expiresAt || expiresAt <= ctx.now) throw new Conflict("Este evento ya terminó: la puerta está cerrada.");
  return { access: { event: { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug }, userId: null, pinSessionId: randomToken(12) }, expiresAt };
}

/** Opens the door with a PIN and answers the signed session the device keeps (cookie or header) until the night is over. */
export async function unlockDoor(ctx: Ctx, input: { slug: string; pin: unknown; deviceId?: string | null }) {
  const { access, expiresAt } = await checkDoorPin(ctx, input);
  const [stored] = await ctx.db.select({ id: doorPins.id }).from(doorPins).where(eq(doorPins.eventId, access.event.id));
  const token = await new SignJWT({ evt: access.event.id, pin: stored.id })
    .setProtectedHeader({ alg: "HS256" })
    .setAudience("door")
    .setSubject(access.pinSessionId!)
    .setIssuedAt(Math.floor(ctx.now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key());
  return { token, expiresAt, access };
}

/** The access a door session token opens for this event, or null (expired, another event, PIN rotated or revoked). */
async function accessFromSession(ctx: Ctx, eventId: string, token: string): Promise<DoorAccess["pinSessionId"]> {
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: ["HS256"], audience: "door", currentDate: ctx.now });
    if (payload.evt !== eventId || typeof payload.pin !== "string" || typeof payload.sub !== "string") return null;
    const [stored] = await ctx.db.select({ id: doorPins.id }).from(doorPins).where(eq(doorPins.eventId, eventId));
    return stored?.id === payload.pin ? payload.sub : null;
  } catch {
    return null;
  }
}

/**
 * Who may work this event's door: staff with a live PIN session for it, or a
 * member whose role operates doors. Anyone else gets Unauthenticated (the
 * screen then asks for the PIN) or Forbidden.
 */
export async function openDoor(ctx: Ctx, input: { slug: string; session?: string | null; pin?: string | null; deviceId?: string | null }): Promise<DoorAccess> {
  if (input.pin) return (await checkDoorPin(ctx, { slug: input.slug, pin: input.pin, deviceId: input.deviceId })).access;
  const event = await doorEvent(ctx, input.slug);
  const info = { id: event.id, organizationId: event.organizationId, name: event.name, slug: event.slug };
  if (input.session) {
    const pinSessionId = await accessFromSession(ctx, event.id, input.session);
    if (pinSessionId) return { event: info, userId: null, pinSessionId };
  }
  if (ctx.actor.kind !== "user") throw new Unauthenticated("Ingresá el PIN de la puerta para acreditar.");
  await requireEventBySlug(ctx, input.slug, "door:operate");
  return { event: info, userId: ctx.actor.userId, pinSessionId: null };
}
