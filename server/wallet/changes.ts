import { eq, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { walletDeviceRegistrations } from "#server/db/schema";
import { log } from "#server/monitoring/log";
import type { AppleWalletConfig, GoogleWalletConfig } from "./config";
import { deactivateGoogleObject, patchGoogleClass } from "./google";
import { walletEventOfId } from "./pass-data";
import { touchWalletPasses } from "#server/tickets/wallet-changes";

/** The job that shows a live-QR event's static code in the Apple passes registered before its reveal time. */
export const WALLET_PASS_REVEAL_JOB = "wallet-pass-reveal";

/**
 * At the reveal time: the passes' tags move and their devices get a push, so
 * they fetch the pass again, now with the QR. Google is not told anything
 * (its pass rotates the live code all along).
 */
export async function runWalletPassReveal(db: Db, serials: string[], setup: { apple: AppleWalletConfig | null; apns: ApnsSender | null }, now: Date): Promise<void> {
  if (!serials.length || !setup.apple) return;
  await touchWalletPasses(db, serials, now);
  await runWalletPassesChanged(db, serials, { ...setup, google: null });
}

/** What wakes a device so it asks for its passes again: APNs, with an empty payload and the pass type as topic. */
export interface ApnsSender {
  /** "gone": APNs no longer knows the token (the pass was removed): its registrations are deleted. */
  push(pushToken: string, topic: string): Promise<"sent" | "gone">;
}

/**
 * The job after a ticket change (server/tickets/wallet-changes.ts): a push to
 * every device that registered one of `serials` (it then asks the web service
 * and gets the voided pass), and each serial's Google object set INACTIVE.
 * Without an APNs sender the devices see the change the next time they ask.
 */
export async function runWalletPassesChanged(db: Db, serials: string[], setup: { apple: AppleWalletConfig | null; apns: ApnsSender | null; google: GoogleWalletConfig | null }): Promise<void> {
  if (!serials.length) return;
  if (setup.apple) {
    const rows = await db.selectDistinct({ pushToken: walletDeviceRegistrations.pushToken }).from(walletDeviceRegistrations).where(inArray(walletDeviceRegistrations.serialNumber, serials));
    if (rows.length && !setup.apns) log().info({ area: "wallet", devices: rows.length }, "APNs sin configurar: los pases se actualizan cuando el dispositivo pregunte");
    if (setup.apns) {
      for (const { pushToken } of rows) {
        if ((await setup.apns.push(pushToken, setup.apple.passTypeId)) === "gone") await db.delete(walletDeviceRegistrations).where(eq(walletDeviceRegistrations.pushToken, pushToken));
      }
    }
  }
  if (setup.google) {
    for (const serial of serials) await deactivateGoogleObject(setup.google, serial);
  }
}

/**
 * The job after an organizer changed what a pass shows of an event
 * (server/tickets/wallet-changes.ts walletEventsChanged): one PATCH of each
 * date's Google class (decision 238) with the event and that date as they are
 * when the job runs. `dateIds`: the schedule's edit touched only those dates,
 * so only their classes; without it (the name, the venue, the colours), every
 * date not deleted and not ended. Without Google Wallet, nothing.
 */
export async function runWalletEventChanged(db: Db, eventId: string, google: GoogleWalletConfig | null, options: { dateIds?: string[]; now?: Date } = {}): Promise<void> {
  if (!google || !eventId) return;
  const event = await walletEventOfId(db, eventId, { dateIds: options.dateIds, now: options.now ?? new Date() });
  if (!event) return;
  for (const date of event.dates) await patchGoogleClass(google, event, date);
}
