import { and, eq, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Db } from "#server/db/client";
import { arcaTickets } from "#server/db/schema";
import type { ArcaConfig } from "./config";
import { soapCall, xmlText } from "./soap";

/*
 * WSAA, ARCA's authentication (docs/invoicing.md): a login ticket request (TRA) signed with our certificate
 * and key as CMS (PKCS#7 SignedData, SHA-256, content attached) is exchanged for an access ticket — a token
 * and a sign valid about 12 hours. The ticket is kept in `arca_tickets`, so every process shares it (WSAA
 * refuses a second ticket while one is valid), and renewed RENEW_BEFORE_MS before it expires.
 */

const TZ = "America/Argentina/Buenos_Aires";
export const WSAA_NAMESPACE = "http://wsaa.view.sua.dvadac.desein.afip.gov";
/** A ticket this close to its expiry is renewed instead of used. */
export const RENEW_BEFORE_MS = 10 * 60_000;

export interface AccessTicket {
  token: string;
  sign: string;
  expiresAt: Date;
}

/** The login ticket request for `service`, valid from 10 minutes before `now` to 10 minutes after (clock skew). */
export function loginTicketRequest(service: string, now: Date): string {
  const at = DateTime.fromJSDate(now).setZone(TZ).set({ millisecond: 0 });
  const iso = (d: DateTime) => d.toISO({ suppressMilliseconds: true }) ?? "";
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<loginTicketRequest version="1.0">',
    `<header><uniqueId>${Math.floor(now.getTime() / 1000)}</uniqueId><generationTime>${iso(at.minus({ minutes: 10 }))}</generationTime><expirationTime>${iso(at.plus({ minutes: 10 }))}</expirationTime></header>`,
    `<service>${service}</service>`,
    "</loginTicketRequest>",
  ].join("");
}

/** The TRA signed as CMS (DER, base64), as WSAA's loginCms takes it. */
export async function signLoginTicketRequest(tra: string, cert: string, key: string): Promise<string> {
  // Loaded on first use, so the server's idle memory does not carry it (decision 242). A deep import with its extension:
  // the package has no "exports", so Node resolves the file itself (not in its index).
  const { Cryptography } = await import("@arcasdk/core/lib/infrastructure/utils/crypt-data.js");
  return new Cryptography(cert, key).sign(tra);
}

/** Asks WSAA for a new access ticket for `service`. */
export async function loginCms(config: ArcaConfig, service: string, now: Date): Promise<AccessTicket> {
  const cms = await signLoginTicketRequest(loginTicketRequest(service, now), config.cert, config.key);
  const body = await soapCall(config.urls.wsaa, "", `<wsaa:loginCms><wsaa:in0>${cms}</wsaa:in0></wsaa:loginCms>`, { wsaa: WSAA_NAMESPACE }, config.timeoutMs);
  // loginCmsReturn carries the loginTicketResponse as escaped XML text.
  const ticketXml = xmlText(body, "loginCmsReturn");
  const token = ticketXml && xmlText(ticketXml, "token");
  const sign = ticketXml && xmlText(ticketXml, "sign");
  const expiration = ticketXml && xmlText(ticketXml, "expirationTime");
  if (!token || !sign || !expiration) throw new Error("WSAA respondió sin token, sign o vencimiento");
  const expiresAt = new Date(expiration);
  if (Number.isNaN(expiresAt.getTime())) throw new Error(`WSAA respondió un vencimiento ilegible: ${expiration}`);
  return { token, sign, expiresAt };
}

/**
 * The access ticket for `service`: the stored one while it has more than RENEW_BEFORE_MS left; otherwise a
 * new one, asked by one process at a time (an advisory lock per environment and CUIT: the others wait and
 * read the ticket it stored).
 */
export async function accessTicket(db: Db, config: ArcaConfig, now: Date, service = "wsfe"): Promise<AccessTicket> {
  const where = and(eq(arcaTickets.environment, config.environment), eq(arcaTickets.cuit, config.cuit), eq(arcaTickets.service, service));
  const fresh = (row: AccessTicket | undefined) => row && row.expiresAt.getTime() - now.getTime() > RENEW_BEFORE_MS;
  const [stored] = await db.select().from(arcaTickets).where(where);
  if (fresh(stored)) return stored;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`arca-wsaa:${config.environment}:${config.cuit}:${service}`}))`);
    const [again] = await tx.select().from(arcaTickets).where(where);
    if (fresh(again)) return again;
    const ticket = await loginCms(config, service, now);
    await tx
      .insert(arcaTickets)
      .values({ environment: config.environment, cuit: config.cuit, service, ...ticket, generatedAt: now })
      .onConflictDoUpdate({ target: [arcaTickets.environment, arcaTickets.cuit, arcaTickets.service], set: { token: ticket.token, sign: ticket.sign, expiresAt: ticket.expiresAt, generatedAt: now } });
    return ticket;
  });
}

/** Drops the stored ticket (ARCA refused it): the next caller asks WSAA for a new one. */
export async function forgetAccessTicket(db: Db, config: ArcaConfig, service = "wsfe") {
  await db.delete(arcaTickets).where(and(eq(arcaTickets.environment, config.environment), eq(arcaTickets.cuit, config.cuit), eq(arcaTickets.service, service)));
}
