import { defineChannel, onMissedNotifications } from "#server/db/notify";

/**
 * "An event changed" (its data, dates, ticket types, status), announced by
 * the domain after an organizer's change so that every process drops what it
 * keeps of it: copies of its public pages (server/http/page-cache.ts), the
 * sale snapshot (server/orders/sale-snapshot.ts), the door's dates
 * (server/door/redeem.ts). It reaches every app process through PostgreSQL
 * notifications (server/db/notify.ts, docs/scaling.md).
 */
const eventChannel = defineChannel("event", ["eventId"]);

/** What a process keeps about events: one event's copies, or all of them. */
export interface EventCache {
  forget(eventId: string): void;
  /** Notifications may have been missed (the listening connection came back): nothing kept can be trusted. */
  forgetAll(): void;
}

/** After the change is committed. */
export function eventChanged(eventId: string): void {
  eventChannel.publish({ eventId });
}

/** The cache forgets an event when it changes through any process, and everything when changes may have been missed. */
export function followEventChanges(cache: EventCache): () => void {
  const stopChanges = eventChannel.subscribe(({ eventId }) => cache.forget(eventId));
  const stopMissed = onMissedNotifications(() => cache.forgetAll());
  return () => {
    stopChanges();
    stopMissed();
  };
}
