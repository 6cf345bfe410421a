import { and, asc, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { doorScans, issuedProducts, orders, ticketTypes } from "#server/db/schema";
import type { DoorScanOutcome } from "#server/db/schema";
import { requireEventBySlug } from "#server/events/events";
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
  latestScans: { at: string; door: string; outcome: DoorScanOutcome; holderName: string | null; ticketTypeName: string | null; offline: boolean }[];
  conflicts: { at: string; door: string; holderName: string | null; ticketTypeName: string | null }[];
}

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
      .select({ at: doorScans.receivedAt, door: doorScans.door, outcome: doorScans.outcome, holderName: issuedProducts.holderName, ticketTypeName: ticketTypes.name, offline: doorScans.offline })
      .from(doorScans)
      .leftJoin(issuedProducts, eq(issuedProducts.id, doorScans.issuedProductId))
      .leftJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
      .where(eq(doorScans.eventId, event.id))
      .orderBy(desc(doorScans.receivedAt))
      .limit(15),
    db
      .select({ at: doorScans.scannedAt, door: doorScans.door, holderName: issuedProducts.holderName, ticketTypeName: ticketTypes.name })
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
    latestScans: latest.map((s) => ({ ...s, at: s.at.toISOString() })),
    conflicts: conflicts.map((c) => ({ ...c, at: c.at.toISOString() })),
  };
}

/** The live view for a member of the organization whose role works doors. */
export async function liveNight(ctx: Ctx, slug: string): Promise<LiveNight> {
  const event = await requireEventBySlug(ctx, slug, "door:operate");
  return computeLiveNight(ctx.db, { id: event.id, name: event.name, slug: event.slug }, ctx.now);
}

// ---------------------------------------------------------------------------
// Live updates: redemptions say "this event changed"; one hub per event
// computes the view once (at most every THROTTLE_MS) for everyone watching.

const THROTTLE_MS = 1000;

type Listener = (night: LiveNight) => void;
interface Hub {
  listeners: Set<Listener>;
  timer: NodeJS.Timeout | null;
  unsubscribe: () => void;
}
const hubs = new Map<string, Hub>();

function hubFor(db: DbOrTx, event: LiveNight["event"]): Hub {
  const existing = hubs.get(event.id);
  if (existing) return existing;
  const hub: Hub = { listeners: new Set(), timer: null, unsubscribe: () => {} };
  hub.unsubscribe = onDoorChange(event.id, () => {
    if (hub.timer) return;
    hub.timer = setTimeout(() => {
      hub.timer = null;
      computeLiveNight(db, event, new Date()).then(
        (night) => hub.listeners.forEach((listener) => listener(night)),
        () => {
          // A failed refresh is retried on the next change; watchers keep the last view.
        },
      );
    }, THROTTLE_MS);
    hub.timer.unref?.();
  });
  hubs.set(event.id, hub);
  return hub;
}

/**
 * The live view now and after every change, until `signal` aborts (the
 * phone closed the page). Checks access once, at the start.
 */
export async function* watchLiveNight(ctx: Ctx, slug: string, signal?: AbortSignal): AsyncGenerator<LiveNight> {
  const first = await liveNight(ctx, slug);
  yield first;
  const hub = hubFor(ctx.db, first.event);
  let latest: LiveNight | null = null;
  let wake: (() => void) | null = null;
  const listener: Listener = (night) => {
    latest = night;
    wake?.();
  };
  const stop = () => wake?.();
  hub.listeners.add(listener);
  signal?.addEventListener("abort", stop);
  try {
    while (!signal?.aborted) {
      if (!latest) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (signal?.aborted) break;
      if (latest) {
        const next: LiveNight = latest;
        latest = null;
        yield next;
      }
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    hub.listeners.delete(listener);
    if (!hub.listeners.size) {
      hub.unsubscribe();
      if (hub.timer) clearTimeout(hub.timer);
      hubs.delete(first.event.id);
    }
  }
}
