import { defineChannel, onMissedNotifications } from "#server/db/notify";

/**
 * "Something happened at this event's door": redemptions and accreditations
 * announce it, the live view listens. It reaches every app process through
 * PostgreSQL notifications (server/db/notify.ts, docs/scaling.md): a scan
 * made through one process updates the live view watched through another.
 */
const doorChannel = defineChannel("door", ["eventId"]);

/** After the change is committed. */
export function doorChanged(eventId: string): void {
  doorChannel.publish({ eventId });
}

/**
 * `listener` runs after every change at this event's door, made through any
 * process, and also when changes may have been missed (the listening
 * connection came back): the live view then reads the night again.
 */
export function onDoorChange(eventId: string, listener: (eventId: string) => void): () => void {
  const stopChanges = doorChannel.subscribe((change) => {
    if (change.eventId === eventId) listener(eventId);
  });
  const stopMissed = onMissedNotifications(() => listener(eventId));
  return () => {
    stopChanges();
    stopMissed();
  };
}
