/**
 * "Something happened at this event's door": redemptions announce it, the
 * live view listens. In-process for now; with several app processes this is
 * where PostgreSQL LISTEN/NOTIFY goes (DESIGN.md §12).
 */
type DoorListener = (eventId: string) => void;
const listeners = new Map<string, Set<DoorListener>>();

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
