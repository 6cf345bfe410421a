import { defineChannel } from "#server/db/notify";

/**
 * What every process's copy of a queue follows (docs/queue.md, decision 189):
 * - "joined": new places (load those after the last arrival known);
 * - "drawn": the opening's draw gave every early place its position (load them all);
 * - "admitted": the watermark moved (load the settings and the places just admitted);
 * - "settings": on/off, opening, pace, paused, sold out;
 * - "bought": `placeId` bought (its place only).
 * `placeId` is empty except for "bought".
 */
export const queueChanges = defineChannel("queue", ["eventId", "change", "placeId"]);
export type QueueChange = "joined" | "drawn" | "admitted" | "settings" | "bought";

export function publishQueueChange(eventId: string, change: QueueChange, placeId = ""): void {
  queueChanges.publish({ eventId, change, placeId });
}

