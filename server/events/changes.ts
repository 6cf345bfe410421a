/**
 * "An event changed" (its data, dates, ticket types, status), announced by
 * the domain after an organizer's change so that copies of its public pages
 * (server/http/page-cache.ts) are dropped. In-process only: other processes'
 * copies live a few seconds at most (the cache's TTL).
 *
 * The listeners live on globalThis: the HTTP server and the Remix build each
 * load their own copy of this module, and both must share one list.
 */
type Listener = (eventId: string) => void;

const KEY = Symbol.for("tribuna.eventChangeListeners");
const registry = globalThis as typeof globalThis & { [KEY]?: Set<Listener> };
const listeners = (registry[KEY] ??= new Set<Listener>());

export function onEventChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function eventChanged(eventId: string): void {
  for (const listener of listeners) listener(eventId);
}
