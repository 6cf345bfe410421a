import crypto from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { bytesToHex, liveTicketSecret, STATIC_CODE_REVEAL_HOURS_DEFAULT, STATIC_CODE_REVEAL_HOURS_MAX, ticketRefOf } from "#common/live-qr";
import type { Ctx } from "#server/context";
import type { DbOrTx } from "#server/db/client";
import { eventLiveQr, eventResaleSettings, events } from "#server/db/schema";
import { decryptSecret, encryptSecret } from "#server/auth/encryption";
import { NotFound } from "#server/errors";
import { recordAudit } from "#server/organizations/audit";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput, type DomainInput } from "#server/validation";

/**
 * The live QR of an event ("QR dinámico", docs/door.md, decisions 207 and 208): its setting, its key
 * and each ticket's secret. The codes themselves are computed by `common/live-qr.ts`, the same in the
 * buyer's browser, here and on the door phone.
 */

export interface LiveQrSettings {
  /** Whether the event's tickets show the live code (the organizer's choice or the default). */
  enabled: boolean;
  /** The organizer chose (a row with `enabled` set); false: the default applies. */
  chosen: boolean;
  /** What the default would be: on for events with named tickets, resale allowed by an explicit setting, or a per-account limit. */
  defaultEnabled: boolean;
  staticCodeRevealHours: number;
}

export const LIVE_QR_MESSAGES = {
  revealHoursRange: `Las horas van de 0 a ${STATIC_CODE_REVEAL_HOURS_MAX} (una semana), en números enteros.`,
} as const;

/** Settings of several events at once (ticket pages of many events, the manifest). */
export async function liveQrSettingsOfEvents(db: DbOrTx, eventIds: string[]): Promise<Map<string, LiveQrSettings>> {
  const ids = [...new Set(eventIds)];
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: events.id,
      enabled: eventLiveQr.enabled,
      revealHours: eventLiveQr.staticCodeRevealHours,
      // "Uses resale" is an explicit resale setting that allows it (decision 207): every event allows resale by default, and that alone does not turn the live QR on.
      defaultEnabled: sql<boolean>`(${events.oneHolderPerTicket} or ${events.maxTicketsPerAccount} is not null or coalesce(${eventResaleSettings.enabled}, false))`,
    })
    .from(events)
    .leftJoin(eventLiveQr, eq(eventLiveQr.eventId, events.id))
    .leftJoin(eventResaleSettings, eq(eventResaleSettings.eventId, events.id))
    .where(inArray(events.id, ids));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        enabled: r.enabled ?? Boolean(r.defaultEnabled),
        chosen: r.enabled !== null,
        defaultEnabled: Boolean(r.defaultEnabled),
        staticCodeRevealHours: r.revealHours ?? STATIC_CODE_REVEAL_HOURS_DEFAULT,
      },
    ]),
  );
}

export async function liveQrSettingsOf(db: DbOrTx, eventId: string): Promise<LiveQrSettings> {
  const settings = (await liveQrSettingsOfEvents(db, [eventId])).get(eventId);
  if (!settings) throw new NotFound("No encontramos ese evento.");
  return settings;
}

async function requireEventToManage(ctx: Ctx, eventId: string) {
  if (!z.string().uuid().safeParse(eventId).success) throw new NotFound("No encontramos ese evento.");
  const [event] = await ctx.db.select({ id: events.id, organizationId: events.organizationId }).from(events).where(eq(events.id, eventId));
  if (!event) throw new NotFound("No encontramos ese evento.");
  await requireCapability(ctx, event.organizationId, "events:manage");
  return event;
}

/** The event's live-QR setting for its back office (events:manage). */
export async function getEventLiveQr(ctx: Ctx, eventId: string): Promise<LiveQrSettings> {
  await requireEventToManage(ctx, eventId);
  return liveQrSettingsOf(ctx.db, eventId);
}

const settingsSchema = z.object({
  eventId: z.string().uuid("Identificador inválido"),
  enabled: z.boolean(),
  staticCodeRevealHours: z
    .number({ error: LIVE_QR_MESSAGES.revealHoursRange })
    .int(LIVE_QR_MESSAGES.revealHoursRange)
    .min(0, LIVE_QR_MESSAGES.revealHoursRange)
    .max(STATIC_CODE_REVEAL_HOURS_MAX, LIVE_QR_MESSAGES.revealHoursRange),
});

/** Saves the event's live-QR choice and static-code reveal hours (events:manage; audited). */
export async function setEventLiveQr(ctx: Ctx, rawInput: DomainInput<typeof settingsSchema>): Promise<LiveQrSettings> {
  const input = parseInput(settingsSchema, rawInput);
  const event = await requireEventToManage(ctx, input.eventId);
  const values = { enabled: input.enabled, staticCodeRevealHours: input.staticCodeRevealHours, updatedAt: ctx.now };
  await ctx.db.transaction(async (tx) => {
    await tx.insert(eventLiveQr).values({ eventId: event.id, ...values }).onConflictDoUpdate({ target: eventLiveQr.eventId, set: values });
    await recordAudit(tx, ctx, { organizationId: event.organizationId, action: "live_qr.settings", targetId: event.id, data: values });
  });
  return liveQrSettingsOf(ctx.db, event.id);
}

/**
 * The event's 32-byte live-QR key, made (random) the first time it is needed and kept encrypted at rest
 * like Mercado Pago's tokens. Two requests making it at once keep the first one written.
 */
export async function liveQrKey(db: DbOrTx, eventId: string): Promise<Uint8Array> {
  const [row] = await db.select({ key: eventLiveQr.keyEncrypted }).from(eventLiveQr).where(eq(eventLiveQr.eventId, eventId));
  if (row?.key) return new Uint8Array(Buffer.from(decryptSecret(row.key, "live-qr-keys"), "base64url"));
  const made = encryptSecret(crypto.randomBytes(32).toString("base64url"), "live-qr-keys");
  await db
    .insert(eventLiveQr)
    .values({ eventId, keyEncrypted: made })
    .onConflictDoUpdate({ target: eventLiveQr.eventId, set: { keyEncrypted: sql`coalesce(${eventLiveQr.keyEncrypted}, excluded.key_encrypted)` } });
  const [saved] = await db.select({ key: eventLiveQr.keyEncrypted }).from(eventLiveQr).where(eq(eventLiveQr.eventId, eventId));
  return new Uint8Array(Buffer.from(decryptSecret(saved!.key!, "live-qr-keys"), "base64url"));
}

/** What a ticket needs to show (or a wallet pass to rotate) its live code. */
export interface LiveTicketCredentials {
  ticketRef: string;
  /** The ticket's TOTP secret in hex (Google Wallet's `totpDetails.parameters[0].key`). */
  secretHex: string;
}

/** The live-QR credentials of one ticket of an event whose live QR is on. */
export async function liveTicketCredentials(db: DbOrTx, eventId: string, ticketId: string, eventKey?: Uint8Array): Promise<LiveTicketCredentials> {
  const ticketRef = ticketRefOf(ticketId);
  if (!ticketRef) throw new NotFound("No encontramos esa entrada.");
  const secret = await liveTicketSecret(eventKey ?? (await liveQrKey(db, eventId)), ticketId);
  return { ticketRef, secretHex: bytesToHex(secret) };
}
