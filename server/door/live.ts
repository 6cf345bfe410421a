import os from "node:os";
import { and, asc, count, desc, eq, isNotNull, lt, sql } from "drizzle-orm";
import { liveScanLine } from "#common/door";
import { seatLabel } from "#common/seating";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { doorScans, issuedProducts, liveStreams, orders, ticketTypes } from "#server/db/schema";
import type { DoorScanOutcome } from "#server/db/schema";
import { currentActor } from "#server/auth/sessions";
import { type DomainError, Forbidden, TooManyRequests, Unauthenticated, isDomainError } from "#server/errors";
import { requireEventBySlug } from "#server/events/events";
import { requireCapability } from "#server/organizations/permissions";
import { onDoorChange } from "./changes";
import { doorDateOf } from "./redeem";
import { productsOfMode, TICKETS_ONLY } from "./search";

/** The team's view of the night (`/vivos/{slug}`): entries against tickets sold, by type, door, promoter and quarter hour. */
export interface LiveNight {
  event: { id: string; name: string; slug: string };
  eventDateStartsAt: string | null;
  updatedAt: string;
  sold: number;
  entered: number;
  ticketTypes: { name: string; sold: number; entered: number }[];
  /** The menu at the bar (decision 106): per item, units sold (not voided) and served (`entered`). */
  bar: { name: string; sold: number; entered: number }[];
  doors: { door: string; entered: number }[];
  promoters: { nick: string; sold: number; entered: number }[];
  /** Entries per 15 minutes, oldest first. */
  perQuarterHour: { at: string; entered: number }[];
  latestScans: {
    at: string;
    door: string;
    outcome: DoorScanOutcome;
    holderName: string | null;
    ticketTypeName: string | null;
    /** ticket (the door) or menu (the bar); null for codes that are no product of this event. */
    productKind: "ticket" | "menu" | null;
    offline: boolean;
    /** What happened, in Spanish: "Ingresó · Ana Peña", "Entregada · Fernet con coca · Ana Peña" (decision 160). */
    line: string;
    /** The ticket's numbered seat ("Platea · Fila F · Asiento 12", common/seating.ts `seatLabel`); null for general admission. */
    seatLabel: string | null;
  }[];
  conflicts: { at: string; door: string; holderName: string | null; ticketTypeName: string | null; seatLabel: string | null }[];
}

/** The seat printed on the scanned ticket (`issued_products.seat_*`), null for general admission or an unknown code. */
const seatColumns = { seatSection: issuedProducts.seatSection, seatRow: issuedProducts.seatRow, seatNumber: issuedProducts.seatNumber };

const soldExpr = sql<number>`count(*) filter (where ${issuedProducts.status} <> 'voided')::int`;
const enteredExpr = sql<number>`count(*) filter (where ${issuedProducts.status} = 'redeemed')::int`;

/** Everything the live view shows, in a handful of grouped queries (run once per change, whatever the number of phones watching). */
export async function computeLiveNight(db: DbOrTx, event: LiveNight["event"], now: Date): Promise<LiveNight> {
  const date = await doorDateOf(db, event.id, now);
  const ofTheNight = and(eq(issuedProducts.eventId, event.id), TICKETS_ONLY, date ? eq(orders.eventDateId, date.id) : undefined);
  const [types, bar, promoters, doors, quarters, latest, conflicts] = await Promise.all([
    db
      .select({ name: ticketTypes.name, sold: soldExpr, entered: enteredExpr })
      .from(issuedProducts)
      .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
      .where(ofTheNight)
      .groupBy(ticketTypes.id, ticketTypes.name, ticketTypes.sortOrder)
      .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.name)),
    db
      .select({ name: ticketTypes.name, sold: soldExpr, entered: enteredExpr })
      .from(issuedProducts)
      .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
      .where(and(eq(issuedProducts.eventId, event.id), productsOfMode("bar"), date ? eq(orders.eventDateId, date.id) : undefined))
      .groupBy(ticketTypes.id, ticketTypes.name, ticketTypes.sortOrder)
      .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.name)),
    db
      .select({ nick: sql<string>`${orders.referredNick}`, sold: soldExpr, entered: enteredExpr })
      .from(issuedProducts)
      .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
      .where(and(ofTheNight, isNotNull(orders.referredNick)))
      .groupBy(orders.referredNick)
      .orderBy(desc(soldExpr)),
    db
      .select({ door: sql<string>`coalesce(${issuedProducts.redeemedDoor}, 'Sin puerta')`, entered: count() })
      .from(issuedProducts)
      .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
      .where(and(ofTheNight, eq(issuedProducts.status, "redeemed")))
      .groupBy(issuedProducts.redeemedDoor)
      .orderBy(desc(count())),
    db
      .select({ at: sql<string>`to_char(to_timestamp(floor(extract(epoch from ${issuedProducts.redeemedAt}) / 900) * 900) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`, entered: count() })
      .from(issuedProducts)
      .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
      .where(and(ofTheNight, eq(issuedProducts.status, "redeemed")))
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    db
      .select({ at: doorScans.receivedAt, door: doorScans.door, outcome: doorScans.outcome, holderName: issuedProducts.holderName, ticketTypeName: ticketTypes.name, productKind: ticketTypes.kind, offline: doorScans.offline, ...seatColumns })
      .from(doorScans)
      .leftJoin(issuedProducts, eq(issuedProducts.id, doorScans.issuedProductId))
      .leftJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
      .where(eq(doorScans.eventId, event.id))
      .orderBy(desc(doorScans.receivedAt))
      .limit(15),
    db
      .select({ at: doorScans.scannedAt, door: doorScans.door, holderName: issuedProducts.holderName, ticketTypeName: ticketTypes.name, ...seatColumns })
      .from(doorScans)
      .leftJoin(issuedProducts, eq(issuedProducts.id, doorScans.issuedProductId))
      .leftJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
      .where(and(eq(doorScans.eventId, event.id), eq(doorScans.outcome, "conflict")))
      .orderBy(desc(doorScans.scannedAt))
      .limit(20),
  ]);
  return {
    event,
    eventDateStartsAt: date?.startsAt.toISOString() ?? null,
    updatedAt: now.toISOString(),
    sold: types.reduce((n, t) => n + t.sold, 0),
    entered: types.reduce((n, t) => n + t.entered, 0),
    ticketTypes: types,
    bar,
    doors,
    promoters,
    perQuarterHour: quarters,
    latestScans: latest.map(({ seatSection, seatRow, seatNumber, ...s }) => ({ ...s, at: s.at.toISOString(), line: liveScanLine(s), seatLabel: seatLabel({ section: seatSection, row: seatRow, number: seatNumber }) })),
    conflicts: conflicts.map(({ seatSection, seatRow, seatNumber, ...c }) => ({ ...c, at: c.at.toISOString(), seatLabel: seatLabel({ section: seatSection, row: seatRow, number: seatNumber }) })),
  };
}

/** The live view for a member of the organization whose role works doors. */
export async function liveNight(ctx: Ctx, slug: string): Promise<LiveNight> {
  const event = await requireEventBySlug(ctx, slug, "door:operate");
  return computeLiveNight(ctx.db, { id: event.id, name: event.name, slug: event.slug }, ctx.now);
}

// ---------------------------------------------------------------------------
// Live updates: redemptions say "this event changed" (through any process: ./changes.ts); one hub per event
// computes the view once for everyone watching: at once after a quiet spell, then at most every THROTTLE_MS.

const THROTTLE_MS = 1000;

/** Live streams one account may hold open at once, all its tabs and phones on every app process together (decisions 147, 167). */
export const LIVE_STREAMS_PER_ACCOUNT = 10;
/** How often an open stream checks that its viewer may still watch, even when nothing happens at the door. */
export const LIVE_RECHECK_MS = 30_000;
export const TOO_MANY_LIVE_STREAMS = `Ya tenés ${LIVE_STREAMS_PER_ACCOUNT} vistas en vivo abiertas con tu cuenta. Cerrá alguna (otra pestaña o teléfono) y volvé a probar.`;
export const LIVE_ACCESS_ENDED = "Ya no tenés acceso a la vista en vivo de este evento.";
export const LIVE_SESSION_ENDED = "Tu sesión terminó. Iniciá sesión de nuevo para ver la noche en vivo.";

type Listener = (night: LiveNight) => void;
interface Hub {
  listeners: Set<Listener>;
  /** Running while a refresh went out less than THROTTLE_MS ago. */
  timer: NodeJS.Timeout | null;
  /** A change arrived during that time: one more refresh when it ends. */
  changedMeanwhile: boolean;
  unsubscribe: () => void;
}
const hubs = new Map<string, Hub>();

function hubFor(db: DbOrTx, event: LiveNight["event"]): Hub {
  const existing = hubs.get(event.id);
  if (existing) return existing;
  const hub: Hub = { listeners: new Set(), timer: null, changedMeanwhile: false, unsubscribe: () => {} };
  // The first change after a quiet spell goes out at once (a scan shows within the second); the ones that
  // follow it within THROTTLE_MS make one more refresh at its end, whatever the number of scans.
  const refresh = () => {
    hub.changedMeanwhile = false;
    computeLiveNight(db, event, new Date()).then(
      (night) => hub.listeners.forEach((listener) => listener(night)),
      () => {
        // A failed refresh is retried on the next change; watchers keep the last view.
      },
    );
    hub.timer = setTimeout(() => {
      hub.timer = null;
      if (hub.changedMeanwhile) refresh();
    }, THROTTLE_MS);
    hub.timer.unref?.();
  };
  hub.unsubscribe = onDoorChange(event.id, () => {
    if (hub.timer) hub.changedMeanwhile = true;
    else refresh();
  });
  hubs.set(event.id, hub);
  return hub;
}

function leaveHub(eventId: string, hub: Hub, listener: Listener) {
  hub.listeners.delete(listener);
  if (hub.listeners.size || hubs.get(eventId) !== hub) return;
  hub.unsubscribe();
  if (hub.timer) clearTimeout(hub.timer);
  hubs.delete(eventId);
}

// Open streams per account, one row each in `live_streams` (decision 167): the cap holds across every app
// process. Each open stream refreshes its row's heartbeat on its access re-check (every LIVE_RECHECK_MS); a row
// not refreshed for LIVE_STREAM_STALE_SECONDS (three re-checks: one failed refresh is no reason to lose the
// place) belongs to a process that died, no longer counts and is deleted by whoever takes a place next.

/** After this long without a heartbeat a stream's row is a dead process's: it no longer counts. */
export const LIVE_STREAM_STALE_SECONDS = 90;
/** Who holds the row (pg_stat_activity-like: the machine and the process), for whoever reads the table. */
const PROCESS_ID = `${os.hostname()}:${process.pid}`;
/** First key of the advisory lock that makes "count, then insert" one step per account (the second is the account's). */
const SLOT_LOCK_CLASS = 167;

// Places being given back by this process: a new stream waits for them, so closing a tab frees its place at
// once for the next one here. On globalThis: the HTTP server and the Remix build each load this module.
const RELEASES_KEY = Symbol.for("tribuna.liveStreamReleases");
const releasesRegistry = globalThis as typeof globalThis & { [RELEASES_KEY]?: Set<Promise<void>> };
const pendingReleases = (releasesRegistry[RELEASES_KEY] ??= new Set<Promise<void>>());

interface StreamSlot {
  /** Tells every process this stream is still open (restarts its row's staleness clock). */
  heartbeat(): void;
  /** Gives the place back (once). */
  release(): void;
}

/** Takes one of the account's stream slots, or refuses with TOO_MANY_REQUESTS. */
async function takeStreamSlot(db: DbOrTx, userId: string): Promise<StreamSlot> {
  await Promise.allSettled([...pendingReleases]);
  const id = await db.transaction(async (tx) => {
    // Two processes opening streams of one account at once take turns here: neither counts before the other inserted.
    await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(SLOT_LOCK_CLASS))}, hashtext(${userId}))`);
    const stale = sql`now() - make_interval(secs => ${LIVE_STREAM_STALE_SECONDS})`;
    await tx.delete(liveStreams).where(and(eq(liveStreams.userId, userId), lt(liveStreams.heartbeatAt, stale)));
    const [{ open }] = await tx.select({ open: count() }).from(liveStreams).where(eq(liveStreams.userId, userId));
    if (open >= LIVE_STREAMS_PER_ACCOUNT) throw new TooManyRequests(TOO_MANY_LIVE_STREAMS);
    const [row] = await tx.insert(liveStreams).values({ userId, processId: PROCESS_ID }).returning({ id: liveStreams.id });
    return row.id;
  });
  let released = false;
  return {
    heartbeat() {
      if (released) return;
      db.update(liveStreams)
        .set({ heartbeatAt: sql`now()` })
        .where(eq(liveStreams.id, id))
        .then(
          () => {},
          // The next re-check tries again; the row only goes stale after several misses.
          () => {},
        );
    },
    release() {
      if (released) return;
      released = true;
      const deleting: Promise<void> = db
        .delete(liveStreams)
        .where(eq(liveStreams.id, id))
        .then(
          () => {},
          (error: unknown) => {
            // Not refreshed any more, the row stops counting once it goes stale.
            console.error("No se pudo liberar el lugar de una vista en vivo:", error);
          },
        )
        .finally(() => pendingReleases.delete(deleting));
      pendingReleases.add(deleting);
    },
  };
}

/**
 * Whether the stream's viewer may still watch, asked again now: their session is active (not logged out),
 * the account exists, and its current role (membership or global, read again) still works doors. Answers
 * the error that ends the stream, or null.
 */
async function accessEnded(ctx: Ctx, organizationId: string): Promise<DomainError | null> {
  const now = new Date();
  const actor = await currentActor(ctx.db, ctx.actor, now);
  if (!actor) return new Unauthenticated(LIVE_SESSION_ENDED);
  try {
    await requireCapability({ ...ctx, actor, now }, organizationId, "door:operate");
    return null;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return error.code === "FORBIDDEN" ? new Forbidden(LIVE_ACCESS_ENDED) : error;
  }
}

/**
 * The live view now and after every change, for a member whose role works doors (decision 147). Access is
 * checked when the stream opens, again before every update it sends, and every `recheckMs` with no update:
 * when it is gone (member removed, role without `door:operate`, session logged out) the stream's next step
 * rejects with the reason (FORBIDDEN or UNAUTHENTICATED) and it ends, sending nothing more.
 *
 * One account holds at most LIVE_STREAMS_PER_ACCOUNT streams at once; past it, the first step rejects with
 * TOO_MANY_REQUESTS. The place is taken when the stream is first read, not when it is made: a stream nobody
 * reads (yoga answers 406 to a subscription asked for as JSON, and drops it without closing it) holds none.
 * It is given back when `signal` aborts, `return()` is called (the phone closed the page) or access ends.
 */
export async function openLiveNight(
  ctx: Ctx,
  slug: string,
  options: { signal?: AbortSignal; recheckMs?: number } = {},
): Promise<AsyncIterableIterator<LiveNight>> {
  const event = await requireEventBySlug(ctx, slug, "door:operate");
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  return liveStream(ctx, ctx.actor.userId, { id: event.id, name: event.name, slug: event.slug }, event.organizationId, options);
}

function liveStream(
  ctx: Ctx,
  userId: string,
  event: LiveNight["event"],
  organizationId: string,
  options: { signal?: AbortSignal; recheckMs?: number },
): AsyncIterableIterator<LiveNight> {
  let started = false;
  let slot: StreamSlot | null = null;
  let hub: Hub | null = null;
  let timer: NodeJS.Timeout | null = null;
  /** Checked and ready to send. */
  let ready: LiveNight | null = null;
  /** Arrived, not checked yet. */
  let incoming: LiveNight | null = null;
  let failure: DomainError | null = null;
  let finished = false;
  let waiter: { resolve: (result: IteratorResult<LiveNight>) => void; reject: (error: unknown) => void } | null = null;
  let checking = false;
  let checkAgain = false;

  const answer = (): Promise<IteratorResult<LiveNight>> | null => {
    if (failure) {
      const error = failure;
      failure = null;
      return Promise.reject(error);
    }
    if (ready) {
      const value = ready;
      ready = null;
      return Promise.resolve({ value, done: false });
    }
    if (finished) return Promise.resolve({ value: undefined, done: true });
    return null;
  };
  const wakeWaiter = () => {
    if (!waiter) return;
    const next = answer();
    if (!next) return;
    const { resolve, reject } = waiter;
    waiter = null;
    next.then(resolve, reject);
  };
  const finish = (error: DomainError | null = null) => {
    if (finished) return;
    finished = true;
    // Nothing checked before the end goes out after it.
    ready = null;
    incoming = null;
    failure = error;
    if (timer) clearInterval(timer);
    options.signal?.removeEventListener("abort", onAbort);
    if (hub) leaveHub(event.id, hub, listener);
    slot?.release();
    wakeWaiter();
  };
  const onAbort = () => finish();

  /** Checks access (one check at a time; a change during a check gets a check of its own) and then lets the newest view out. */
  const check = async () => {
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = true;
    try {
      do {
        checkAgain = false;
        const candidate = incoming;
        let ended: DomainError | null;
        try {
          ended = await accessEnded(ctx, organizationId);
        } catch {
          // The check itself failed (the database): send nothing unchecked, try again on the next change or tick.
          return;
        }
        if (finished) return;
        if (ended) return finish(ended);
        if (candidate && incoming === candidate) {
          incoming = null;
          ready = candidate;
          wakeWaiter();
        }
      } while (checkAgain || incoming);
    } finally {
      checking = false;
    }
  };

  const listener: Listener = (night) => {
    incoming = night;
    void check();
  };

  /** The first read: takes the account's place, computes the view and starts listening. */
  const start = async (): Promise<IteratorResult<LiveNight>> => {
    try {
      slot = await takeStreamSlot(ctx.db, userId);
    } catch (error) {
      finish();
      throw error;
    }
    // Gone while the place was being taken (the phone closed the page): give it back.
    if (finished) {
      slot.release();
      return { value: undefined, done: true };
    }
    let first: LiveNight;
    try {
      first = await computeLiveNight(ctx.db, event, ctx.now);
    } catch (error) {
      finish();
      throw error;
    }
    if (finished) return { value: undefined, done: true };
    hub = hubFor(ctx.db, event);
    hub.listeners.add(listener);
    timer = setInterval(() => {
      slot?.heartbeat();
      void check();
    }, options.recheckMs ?? LIVE_RECHECK_MS);
    timer.unref?.();
    return { value: first, done: false };
  };

  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) finish();

  const iterator: AsyncIterableIterator<LiveNight> = {
    next() {
      if (!started && !finished) {
        started = true;
        return start();
      }
      const next = answer();
      if (next) return next;
      return new Promise((resolve, reject) => (waiter = { resolve, reject }));
    },
    return() {
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
