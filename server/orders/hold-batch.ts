import type { Db } from "#server/db/client";
import { holdBatchConflicts, holdBatchSize } from "#server/monitoring/metrics";

/**
 * Group commit for holds (decisions 125 and 141, docs/locking.md): buyers of one event who
 * reach the write step in the same tick share one transaction, so the hot
 * ticket type's row is locked and updated once for all of them instead of
 * once each. While a batch's transaction runs, newcomers gather for the next
 * one; different events never wait for each other. Each buyer still gets
 * exactly its own answer (its order, or its own error).
 *
 * Per process: two processes batch separately and their batches meet at the
 * ticket type's row lock like two single orders would.
 */

/** A batch's answer for one entry: its result or its own error. */
export type Settled<Result> = { ok: Result } | { error: unknown };

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/** At most this many buyers per transaction: bounds the statement size and the time the row stays locked. */
export const MAX_BATCH = 200;

export function createBatcher<Item, Result>(runBatch: (db: Db, items: Item[]) => Promise<Settled<Result>[]>) {
  // One queue per database (tests open one per file) and per key (the event).
  const queues = new WeakMap<Db, Map<string, Waiting<Item, Result>[]>>();

  async function drain(db: Db, key: string, queue: Waiting<Item, Result>[]) {
    try {
      while (queue.length) {
        const batch = queue.splice(0, MAX_BATCH);
        holdBatchSize.observe(batch.length);
        try {
          const answers = await runBatch(
            db,
            batch.map((w) => w.item),
          );
          let refused = 0;
          batch.forEach((w, i) => {
            const answer = answers[i];
            if ("ok" in answer) w.resolve(answer.ok);
            else {
              refused += 1;
              w.reject(answer.error);
            }
          });
          if (refused) holdBatchConflicts.inc(refused);
        } catch (error) {
          holdBatchConflicts.inc(batch.length);
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      queues.get(db)?.delete(key);
    }
  }

  return function submit(db: Db, key: string, item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      let byKey = queues.get(db);
      if (!byKey) queues.set(db, (byKey = new Map()));
      const queue = byKey.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      const fresh = [{ item, resolve, reject }];
      byKey.set(key, fresh);
      // Whoever else arrives before the next turn of the event loop rides along.
      setImmediate(() => void drain(db, key, fresh));
    });
  };
}
