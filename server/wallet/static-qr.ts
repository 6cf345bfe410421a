import { staticCodeAdmittedFrom } from "#common/live-qr";
import type { DbOrTx } from "#server/db/client";
import { liveQrSettingsOf } from "#server/door/live-qr";

/**
 * When the door starts taking a live-QR event's static QR (the opening, or the start, less the
 * organizer's reveal hours: `staticCodeAdmittedFrom`, decision 207), if that is still ahead of `now`;
 * null when the event has no live QR or its static QR counts already. The tickets PDF and email say it
 * (server/tickets/pdf.ts staticQrNote). It lives here, with the wallet's other reading of the live QR,
 * because server/tickets cannot import server/door (which imports it): the worker and the PDF route
 * hand it to the tickets code.
 */
export async function staticQrValidFrom(db: DbOrTx, event: { id: string; startsAt: Date; doorsAt: Date | null }, now: Date): Promise<Date | null> {
  const settings = await liveQrSettingsOf(db, event.id);
  if (!settings.enabled) return null;
  const from = staticCodeAdmittedFrom(event.doorsAt ?? event.startsAt, settings.staticCodeRevealHours);
  return from > now ? from : null;
}
