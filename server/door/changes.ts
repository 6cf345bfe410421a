/**
 * "Something happened at this event's door": redemptions announce it, the
 * live view listens. In-process for now; with several app processes this is
 * where PostgreSQL LISTEN/NOTIFY goes (DESIGN.md §12).
 */
type DoorListener = (eventId: string) => void;
// On globalThis, like server/events/changes.ts: the HTTP server and the Remix build each load their own copy of this module.
const KEY = Symbol.for("tribuna.doorChangeListeners");
const registry = globalThis as typeof globalThis & { [KEY]?: Map<string, Set<DoorListener>> };
const listeners = (registry[KEY] ??= new Map<string, Set<DoorListener>>());

export function doorChanged(eventId: string): void {
  for (const listener of listeners.get(eventId) ?? []) listener(eventId);
}

export function onDoorChange(eventId: string, listener: DoorListener): () => void {
  const set = listeners.get(eventId) ?? new Set();
  set.add(listener);
  listeners.set(eventId, set);
  return () => {
    set.delete(listener);
    if (!set.size) listeners.delete(eventId);
  };
}
