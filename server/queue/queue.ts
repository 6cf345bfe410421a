import { and, count, eq, gt } from "drizzle-orm";
import { z } from "zod";
import type { AdmissionGrant, Ctx } from "#server/context";
import type { Db, DbOrTx } from "#server/db/client";
import { eventQueues, queuePlaces, type QueuePlaceStatus } from "#server/db/schema";
import { Invalid, NotFound, QueueRequired, Unauthenticated } from "#server/errors";
import { takeAttempt } from "#server/auth/rate-limit";
import { requireEvent } from "#server/events/access";
import { parseInput, type DomainInput } from "#server/validation";
import { publishQueueChange, queueChanges } from "./changes";
import { drawCommitment, newDrawSeed } from "./draw";
import { joinInBatch, QUEUE_CLOSED_MESSAGE } from "./join-batch";
import { queueMemory, type PlaceEntry, type QueueMemory, type QueueState } from "./memory";

/**
 * The virtual queue of an on-sale (docs/queue.md; decisions 186–189): the
 * organizer's settings, a buyer's place, and the gate every way to buy goes
 * through. A waiting person's refresh (`queuePlace`, `queueInfo`) reads this
 * process's copy (./memory.ts), never PostgreSQL.
 */

export const DEFAULT_ADMISSION_MINUTES = 10;
/** New places per IP in the rate limit's window (15 minutes): mobile carriers put many people behind one address. */
export const JOINS_PER_IP = 200;

export type QueuePlaceStatusView = "WAITING" | "ADMITTED" | "SOLD_OUT" | "CLOSED";
export type QueueClosedReason = "BOUGHT" | "EXPIRED" | "QUEUE_OFF";

export interface QueuePlaceView {
  id: string;
  eventId: string;
  eventSlug: string;
  status: QueuePlaceStatusView;
  /** Place in the whole line (1 = first); null before the opening's draw. */
  position: number | null;
  /** People still waiting ahead; null before the draw. */
  ahead: number | null;
  /** Null when there is no honest figure (before the opening, nobody admitted lately). */
  estimatedWaitSeconds: number | null;
  admissionExpiresAt: Date | null;
  opensAt: Date;
  drawCommitment: string;
  /** Null until the opening. */
  drawSeed: string | null;
  closedReason: QueueClosedReason | null;
  paused: boolean;
  /** How often the page should ask again. */
  refreshSeconds: number;
  /** The grant to put in the `admision-fila` cookie (admissionCookieHeader) while ADMITTED; never shown over GraphQL. */
  grant: AdmissionGrant | null;
}

/** What the queue page shows before (or without) a place: the opening, the commitment, the state. */
export interface QueueInfoView {
  eventId: string;
  eventSlug: string;
  eventName: string;
  enabled: boolean;
  opensAt: Date;
  open: boolean;
  paused: boolean;
  soldOut: boolean;
  drawCommitment: string;
  drawSeed: string | null;
  /** Places not admitted yet (this process's copy). */
  waiting: number;
  refreshSeconds: number;
}

export interface EventQueueView {
  eventId: string;
  enabled: boolean;
  opensAt: Date;
  admissionMinutes: number;
  admitPerMinute: number | null;
  pace: "AUTOMATIC" | "PER_MINUTE";
  paused: boolean;
  soldOut: boolean;
  drawCommitment: string;
  drawSeed: string | null;
  drawnAt: Date | null;
  waiting: number;
  admitted: number;
  bought: number;
  left: number;
  admittedThrough: number;
  total: number;
}

// ---------- organizer ----------

const setEventQueueSchema = z.object({
  eventId: z.string(),
  enabled: z.boolean({ message: "Elegí si la fila está activa." }),
  opensAt: z.coerce.date({ message: "Ingresá la fecha y hora de apertura." }),
  admitPerMinute: z.number().int("Tiene que ser un número entero.").min(1, "Tiene que ser al menos 1 por minuto.").max(100_000, "Como máximo 100.000 por minuto.").nullish(),
  admissionMinutes: z.number().int("Tiene que ser un número entero.").min(1, "Tiene que ser al menos 1 minuto.").max(120, "Como máximo 120 minutos.").nullish(),
});

/**
 * Turns the event's queue on or off and sets the opening, the admission's
 * length and the pace (null `admitPerMinute`: automatic). The draw's seed is
 * made when the queue is first set and never changes; the opening cannot
 * move once the draw was made. Needs events:manage.
 */
export async function setEventQueue(ctx: Ctx, rawInput: DomainInput<typeof setEventQueueSchema>): Promise<EventQueueView> {
  const input = parseInput(setEventQueueSchema, rawInput);
  await requireEvent(ctx, input.eventId);
  const [current] = await ctx.db.select().from(eventQueues).where(eq(eventQueues.eventId, input.eventId));
  if (current?.drawnAt && current.opensAt.getTime() !== input.opensAt.getTime()) {
    throw new Invalid({ opensAt: ["La fila ya abrió y se hizo el sorteo: la apertura no se puede cambiar."] });
  }
  const values = {
    enabled: input.enabled,
    opensAt: input.opensAt,
    admitPerMinute: input.admitPerMinute ?? null,
    admissionMinutes: input.admissionMinutes ?? current?.admissionMinutes ?? DEFAULT_ADMISSION_MINUTES,
    updatedAt: ctx.now,
  };
  if (current) await ctx.db.update(eventQueues).set(values).where(eq(eventQueues.eventId, input.eventId));
  else {
    const seed = newDrawSeed();
    await ctx.db
      .insert(eventQueues)
      .values({ eventId: input.eventId, ...values, drawSeed: seed, drawCommitment: drawCommitment(seed), createdAt: ctx.now })
      .onConflictDoUpdate({ target: eventQueues.eventId, set: values });
  }
  publishQueueChange(input.eventId, "settings");
  return organizerView(ctx.db, input.eventId);
}

/** Stops admissions (places keep their order; the admitted keep their time). Needs events:manage. */
export async function pauseEventQueue(ctx: Ctx, eventId: string): Promise<EventQueueView> {
  return setPaused(ctx, eventId, true);
}

export async function resumeEventQueue(ctx: Ctx, eventId: string): Promise<EventQueueView> {
  return setPaused(ctx, eventId, false);
}

async function setPaused(ctx: Ctx, eventId: string, paused: boolean): Promise<EventQueueView> {
  await requireEvent(ctx, eventId);
  const [row] = await ctx.db.update(eventQueues).set({ paused, updatedAt: ctx.now }).where(eq(eventQueues.eventId, eventId)).returning({ eventId: eventQueues.eventId });
  if (!row) throw new NotFound("Este evento no tiene fila virtual.");
  publishQueueChange(eventId, "settings");
  return organizerView(ctx.db, eventId);
}

/** The organizer's view with counts from the database (the live page asks every few seconds). Null: never set. Needs sales:read. */
export async function eventQueue(ctx: Ctx, eventId: string): Promise<EventQueueView | null> {
  await requireEvent(ctx, eventId, "sales:read");
  const [row] = await ctx.db.select({ eventId: eventQueues.eventId }).from(eventQueues).where(eq(eventQueues.eventId, eventId));
  return row ? organizerView(ctx.db, eventId) : null;
}

async function organizerView(db: DbOrTx, eventId: string): Promise<EventQueueView> {
  const [[queue], counts] = await Promise.all([
    db.select().from(eventQueues).where(eq(eventQueues.eventId, eventId)),
    db.select({ status: queuePlaces.status, n: count() }).from(queuePlaces).where(eq(queuePlaces.eventId, eventId)).groupBy(queuePlaces.status),
  ]);
  const by = (status: QueuePlaceStatus) => counts.find((c) => c.status === status)?.n ?? 0;
  return {
    eventId,
    enabled: queue.enabled,
    opensAt: queue.opensAt,
    admissionMinutes: queue.admissionMinutes,
    admitPerMinute: queue.admitPerMinute,
    pace: queue.admitPerMinute ? "PER_MINUTE" : "AUTOMATIC",
    paused: queue.paused,
    soldOut: queue.soldOut,
    drawCommitment: queue.drawCommitment,
    drawSeed: queue.drawnAt ? queue.drawSeed : null,
    drawnAt: queue.drawnAt,
    waiting: by("waiting"),
    admitted: by("admitted"),
    bought: by("bought"),
    left: by("left"),
    admittedThrough: queue.admittedThrough,
    total: counts.reduce((sum, c) => sum + c.n, 0),
  };
}

// ---------- buyer ----------

/**
 * A place in the event's queue for the signed-in account (verified email or
 * not): the same place however many times and from wherever it is asked.
 * New places are rate-limited per IP. NotFound when the event has no queue on.
 */
export async function joinQueue(ctx: Ctx, eventSlug: string, memory: QueueMemory = queueMemory): Promise<QueuePlaceView> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated("Para hacer la fila necesitás iniciar sesión.");
  const state = await memory.bySlug(ctx.db, eventSlug);
  if (!state || !state.settings.enabled) throw new NotFound(QUEUE_CLOSED_MESSAGE);
  const known = state.places.byUser(ctx.actor.userId);
  if (known) return placeView(state, known, ctx.now);
  if (ctx.ip) await takeAttempt(ctx.db, [{ key: `queue-join:ip:${ctx.ip}`, limit: JOINS_PER_IP }], ctx.now);
  const place = await joinInBatch(ctx.db as Db, state.eventId, ctx.actor.userId, ctx.now);
  memory.remember(state.eventId, place);
  return placeView(state, state.places.byUser(place.userId) ?? place, ctx.now);
}

/** The account's place, from this process's copy (no PostgreSQL once loaded). Null: no place (or no queue). */
export async function queuePlace(ctx: Ctx, eventSlug: string, memory: QueueMemory = queueMemory): Promise<QueuePlaceView | null> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated("Para ver tu lugar en la fila necesitás iniciar sesión.");
  const state = await memory.bySlug(ctx.db, eventSlug);
  if (!state) return null;
  const place = state.places.byUser(ctx.actor.userId);
  if (!place) return null;
  return placeView(state, place, ctx.now);
}

/** The queue as the page shows it to anyone (signed in or not), from this process's copy. Null: the event has no queue. */
export async function queueInfo(ctx: Ctx, eventSlug: string, memory: QueueMemory = queueMemory): Promise<QueueInfoView | null> {
  const state = await memory.bySlug(ctx.db, eventSlug);
  return state ? queueInfoOf(state, ctx.now) : null;
}

/** `queueInfo` of a copy already at hand (the poll, ./poll.ts). */
export function queueInfoOf(state: QueueState, now: Date): QueueInfoView {
  const s = state.settings;
  const open = s.drawnAt !== null || now >= s.opensAt;
  return {
    eventId: state.eventId,
    eventSlug: state.eventSlug,
    eventName: state.eventName,
    enabled: s.enabled,
    opensAt: s.opensAt,
    open,
    paused: s.paused,
    soldOut: s.soldOut,
    drawCommitment: s.drawCommitment,
    drawSeed: s.drawSeed,
    waiting: Math.max(0, state.places.size - s.admittedThrough),
    refreshSeconds: open ? 5 : beforeOpeningRefresh(s.opensAt, now),
  };
}

function beforeOpeningRefresh(opensAt: Date, now: Date): number {
  const seconds = (opensAt.getTime() - now.getTime()) / 1000;
  if (seconds > 600) return 60;
  if (seconds > 60) return 15;
  return Math.max(2, Math.min(5, Math.ceil(seconds)));
}

export function placeView(state: QueueState, place: PlaceEntry, now: Date): QueuePlaceView {
  const s = state.settings;
  const base = {
    id: place.id,
    eventId: state.eventId,
    eventSlug: state.eventSlug,
    opensAt: s.opensAt,
    drawCommitment: s.drawCommitment,
    drawSeed: s.drawSeed,
    paused: s.paused,
    position: place.position,
    ahead: null as number | null,
    estimatedWaitSeconds: null as number | null,
    admissionExpiresAt: null as Date | null,
    closedReason: null as QueueClosedReason | null,
    grant: null as AdmissionGrant | null,
  };
  if (!s.enabled) return { ...base, status: "CLOSED", closedReason: "QUEUE_OFF", refreshSeconds: 60 };
  const live = place.admissionExpiresAt !== null && place.admissionExpiresAt > now;
  if ((place.status === "admitted" || place.status === "bought") && live) {
    return {
      ...base,
      status: "ADMITTED",
      ahead: 0,
      estimatedWaitSeconds: 0,
      admissionExpiresAt: place.admissionExpiresAt,
      grant: { eventId: state.eventId, userId: place.userId, placeId: place.id, expiresAt: place.admissionExpiresAt! },
      refreshSeconds: 30,
    };
  }
  if (place.status !== "waiting") {
    return { ...base, status: "CLOSED", closedReason: place.status === "bought" ? "BOUGHT" : "EXPIRED", admissionExpiresAt: place.admissionExpiresAt, refreshSeconds: 60 };
  }
  if (place.position === null) {
    // Before the opening's draw: everyone who joined so far is equal.
    return { ...base, status: s.soldOut ? "SOLD_OUT" : "WAITING", refreshSeconds: beforeOpeningRefresh(s.opensAt, now) };
  }
  const ahead = Math.max(0, place.position - s.admittedThrough - 1);
  if (s.soldOut) return { ...base, status: "SOLD_OUT", ahead, refreshSeconds: 15 };
  return {
    ...base,
    status: "WAITING",
    ahead,
    estimatedWaitSeconds: s.paused ? null : estimateWait(state, ahead + 1, now),
    refreshSeconds: ahead < 50 ? 3 : ahead < 1000 ? 5 : 10,
  };
}

/** Seconds until `places` more are admitted at the pace seen in the last minutes (or the set pace); null when unknown. */
function estimateWait(state: QueueState, places: number, now: Date): number | null {
  const history = state.history;
  const first = history[0];
  const last = history[history.length - 1];
  const admitted = last.through - first.through;
  const seconds = (now.getTime() - first.at) / 1000;
  let perSecond = admitted > 0 && seconds > 0 ? admitted / seconds : 0;
  if (state.settings.admitPerMinute) perSecond = perSecond > 0 ? Math.min(perSecond, state.settings.admitPerMinute / 60) : state.settings.admitPerMinute / 60;
  if (perSecond <= 0) return null;
  return Math.ceil(places / perSecond);
}

// ---------- the gate ----------

/**
 * Every way to buy asks this first (createOrder, the picker's check, the
 * payer page, the menu: they all price through previewOrder). With the
 * event's queue on, the actor must hold a live admission for this event and
 * this account: the page's signed cookie (ctx.admission) or, for GraphQL,
 * the account's own admitted place. Otherwise QUEUE_REQUIRED with the
 * event's slug. Answered from this process's copy; the database is asked
 * only when the account has a place the copy does not show admitted yet.
 */
export async function assertAdmitted(ctx: Ctx, eventId: string, memory: QueueMemory = queueMemory): Promise<void> {
  const state = await memory.get(ctx.db, eventId);
  if (!state?.settings.enabled) return;
  const refuse = () => {
    throw new QueueRequired(state.eventSlug);
  };
  if (ctx.actor.kind !== "user") return refuse();
  const userId = ctx.actor.userId;
  const grant = ctx.admission;
  if (grant && grant.eventId === eventId && grant.userId === userId && grant.expiresAt > ctx.now) return;
  const place = state.places.byUser(userId);
  if (!place) return refuse();
  if (admittedAt(place, ctx.now)) return;
  if (place.status !== "waiting" && place.admissionExpiresAt && place.admissionExpiresAt <= ctx.now) return refuse();
  // The copy may be a moment behind an admission made by another process.
  const [row] = await ctx.db
    .select({ status: queuePlaces.status, admissionExpiresAt: queuePlaces.admissionExpiresAt })
    .from(queuePlaces)
    .where(and(eq(queuePlaces.id, place.id), gt(queuePlaces.admissionExpiresAt, ctx.now)));
  if (row && (row.status === "admitted" || row.status === "bought")) return;
  return refuse();
}

/** assertAdmitted as a question (pages that redirect to /fila before showing how to buy). */
export async function isAdmitted(ctx: Ctx, eventId: string, memory: QueueMemory = queueMemory): Promise<boolean> {
  try {
    await assertAdmitted(ctx, eventId, memory);
    return true;
  } catch (error) {
    if (error instanceof QueueRequired) return false;
    throw error;
  }
}

function admittedAt(place: PlaceEntry, now: Date): boolean {
  return (place.status === "admitted" || place.status === "bought") && place.admissionExpiresAt !== null && place.admissionExpiresAt > now;
}

/**
 * After an order is paid (server/orders/lifecycle.ts onPaid): the buyer's
 * admitted place, if any, is "bought" (it stops counting as someone about to
 * take tickets). In the paying transaction; the copies hear it on commit.
 */
export async function markQueuePlaceBought(tx: DbOrTx, order: { eventId: string; buyerUserId: string | null }, now: Date): Promise<void> {
  if (!order.buyerUserId) return;
  const [place] = await tx
    .update(queuePlaces)
    .set({ status: "bought", boughtAt: now })
    .where(and(eq(queuePlaces.eventId, order.eventId), eq(queuePlaces.userId, order.buyerUserId), eq(queuePlaces.status, "admitted")))
    .returning({ id: queuePlaces.id });
  if (place) await queueChanges.publishInTransaction(tx, { eventId: order.eventId, change: "bought", placeId: place.id });
}
