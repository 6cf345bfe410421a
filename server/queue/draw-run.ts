import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client";
import { eventQueues, queuePlaces } from "#server/db/schema";
import { drawOrder } from "./draw";

type QueueRow = typeof eventQueues.$inferSelect;

/**
 * The opening's draw, once, inside the transaction that holds the queue's
 * row lock (the admitter's tick or a join batch after the opening, whichever
 * comes first): the places that joined before the opening get positions
 * 1..n in the drawn order; any without a position that joined later follow
 * in arrival order. Answers the queue's row as it is now.
 */
export async function drawIfDue(tx: DbOrTx, queue: QueueRow, now: Date): Promise<{ queue: QueueRow; drawn: boolean }> {
  if (queue.drawnAt || now < queue.opensAt) return { queue, drawn: false };
  const unplaced = await tx
    .select({ id: queuePlaces.id, joinedAt: queuePlaces.joinedAt })
    .from(queuePlaces)
    .where(and(eq(queuePlaces.eventId, queue.eventId), isNull(queuePlaces.position)))
    .orderBy(asc(queuePlaces.arrival));
  const early = unplaced.filter((p) => p.joinedAt < queue.opensAt).map((p) => p.id);
  const late = unplaced.filter((p) => p.joinedAt >= queue.opensAt).map((p) => p.id);
  const ordered = [...drawOrder(queue.drawSeed, early), ...late];
  const start = queue.nextPosition;
  await assignPositions(tx, ordered, start);
  const [updated] = await tx
    .update(eventQueues)
    .set({ drawnAt: now, nextPosition: start + ordered.length, updatedAt: now })
    .where(eq(eventQueues.eventId, queue.eventId))
    .returning();
  return { queue: updated, drawn: true };
}

/** Positions start+1, start+2, … for `ids` in this order, in one statement. */
export async function assignPositions(tx: DbOrTx, ids: string[], start: number): Promise<void> {
  if (!ids.length) return;
  const rows = JSON.stringify(ids.map((id, i) => ({ id, position: start + i + 1 })));
  await tx.execute(sql`
    update ${queuePlaces} set position = drawn.position
    from jsonb_to_recordset(${rows}::jsonb) as drawn(id uuid, position int)
    where ${queuePlaces.id} = drawn.id`);
}
