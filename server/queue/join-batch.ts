import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { eventQueues, queuePlaces } from "#server/db/schema";
import { NotFound } from "#server/errors";
import { publishQueueChange } from "./changes";
import { assignPositions, drawIfDue } from "./draw-run";
import { placeColumns, type PlaceEntry } from "./memory";

/**
 * Joins go in batches (as holds do, server/orders/hold-batch.ts): the
 * accounts of one event that join in the same tick share one transaction
 * and one lock of the queue's row. One place per account and event: the
 * unique index decides, so 50 joins of one account at once (any device, any
 * process) end in the same place.
 */

export const QUEUE_CLOSED_MESSAGE = "Este evento no tiene fila virtual abierta.";
const MAX_BATCH = 500;

interface Waiting {
  userId: string;
  now: Date;
  resolve: (place: PlaceEntry & { arrival: number }) => void;
  reject: (error: unknown) => void;
}

const queues = new WeakMap<Db, Map<string, Waiting[]>>();

export function joinInBatch(db: Db, eventId: string, userId: string, now: Date): Promise<PlaceEntry & { arrival: number }> {
  return new Promise((resolve, reject) => {
    let byEvent = queues.get(db);
    if (!byEvent) queues.set(db, (byEvent = new Map()));
    const waiting = byEvent.get(eventId);
    if (waiting) {
      waiting.push({ userId, now, resolve, reject });
      return;
    }
    const fresh: Waiting[] = [{ userId, now, resolve, reject }];
    byEvent.set(eventId, fresh);
    // Whoever else joins before the next turn of the event loop rides along.
    setImmediate(() => void drain(db, eventId, fresh));
  });
}

async function drain(db: Db, eventId: string, waiting: Waiting[]) {
  try {
    while (waiting.length) {
      const batch = waiting.splice(0, MAX_BATCH);
      try {
        const places = await writeJoins(db, eventId, batch);
        for (const w of batch) {
          const place = places.get(w.userId);
          if (place) w.resolve(place);
          else w.reject(new Error("La fila no devolvió el lugar."));
        }
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
  } finally {
    queues.get(db)?.delete(eventId);
  }
}

async function writeJoins(db: Db, eventId: string, batch: Waiting[]) {
  const now = new Date(Math.max(...batch.map((w) => w.now.getTime())));
  const userIds = [...new Set(batch.map((w) => w.userId))];
  const outcome = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(eventQueues).where(eq(eventQueues.eventId, eventId)).for("update");
    if (!locked || !locked.enabled) throw new NotFound(QUEUE_CLOSED_MESSAGE);
    // After the opening the draw comes first: whoever joins now goes behind everyone drawn.
    const { queue, drawn } = await drawIfDue(tx, locked, now);
    const joinedAt = new Map(batch.map((w) => [w.userId, w.now]));
    const inserted = await tx
      .insert(queuePlaces)
      .values(userIds.map((userId) => ({ eventId, userId, joinedAt: joinedAt.get(userId)! })))
      .onConflictDoNothing({ target: [queuePlaces.eventId, queuePlaces.userId] })
      .returning({ id: queuePlaces.id, arrival: queuePlaces.arrival });
    if (queue.drawnAt && inserted.length) {
      const ordered = [...inserted].sort((a, b) => a.arrival - b.arrival).map((p) => p.id);
      await assignPositions(tx, ordered, queue.nextPosition);
      await tx
        .update(eventQueues)
        .set({ nextPosition: queue.nextPosition + ordered.length, updatedAt: now })
        .where(eq(eventQueues.eventId, eventId));
    }
    const rows = await tx
      .select(placeColumns)
      .from(queuePlaces)
      .where(and(eq(queuePlaces.eventId, eventId), inArray(queuePlaces.userId, userIds)));
    return { rows, drawn, joined: inserted.length > 0 };
  });
  if (outcome.drawn) publishQueueChange(eventId, "drawn");
  if (outcome.joined) publishQueueChange(eventId, "joined");
  return new Map(outcome.rows.map((r) => [r.userId, r]));
}
