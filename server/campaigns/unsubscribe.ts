import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { unsubscribePath } from "#common/campaigns";
import type { DbOrTx } from "#server/db/client";
import { emailUnsubscribes, organizations } from "#server/db/schema";
import { safeEqual } from "#server/auth/tokens";
import { appUrl, authSecret } from "#server/env";
import { NotFound } from "#server/errors";

/*
 * Unsubscribing (docs/campaigns.md): every campaign email carries a link
 * `/correos/baja/{token}`, the token being organization + email signed with
 * an HMAC of AUTH_SECRET (as the tickets' QR and the purchase links are), so
 * nobody can unsubscribe someone else nor read a list by guessing. A POST
 * unsubscribes (the page's button, or the mail client's one-click POST of
 * RFC 8058); a GET only shows the page.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UNSUBSCRIBE_MESSAGES = {
  invalid: "Este link para darte de baja no es válido. Copialo completo desde el correo o usá el de un correo más reciente.",
} as const;

function signature(organizationId: string, email: string): string {
  return crypto.createHmac("sha256", authSecret()).update(`campaign-unsubscribe:${organizationId}:${email}`).digest("base64url").slice(0, 32);
}

export function unsubscribeToken(organizationId: string, email: string): string {
  const normalized = email.trim().toLowerCase();
  return `${Buffer.from(`${organizationId}:${normalized}`).toString("base64url")}.${signature(organizationId, normalized)}`;
}

export function unsubscribeUrl(organizationId: string, email: string): string {
  return `${appUrl()}${unsubscribePath(unsubscribeToken(organizationId, email))}`;
}

/** The headers of RFC 2369 and RFC 8058: mail clients show a "Darse de baja" button that POSTs to the link. */
export function unsubscribeHeaders(organizationId: string, email: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribeUrl(organizationId, email)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** The token's organization and email, or null when it was not signed by us. */
export function readUnsubscribeToken(token: string): { organizationId: string; email: string } | null {
  const dot = token.lastIndexOf(".");
  if (dot <= 0 || token.length > 600) return null;
  let payload: string;
  try {
    payload = Buffer.from(token.slice(0, dot), "base64url").toString("utf8");
  } catch {
    return null;
  }
  const colon = payload.indexOf(":");
  const organizationId = payload.slice(0, colon);
  const email = payload.slice(colon + 1);
  if (colon < 0 || !UUID.test(organizationId) || !email.includes("@")) return null;
  if (!safeEqual(token.slice(dot + 1), signature(organizationId, email))) return null;
  return { organizationId, email };
}

export interface UnsubscribePage {
  organizationName: string;
  email: string;
  unsubscribed: boolean;
}

async function resolve(db: DbOrTx, token: string) {
  const read = readUnsubscribeToken(token);
  if (!read) throw new NotFound(UNSUBSCRIBE_MESSAGES.invalid);
  const [organization] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, read.organizationId));
  if (!organization) throw new NotFound(UNSUBSCRIBE_MESSAGES.invalid);
  return { ...read, organizationName: organization.name };
}

/** What the page shows (GET): whose list and whether that email already left it. Changes nothing. */
export async function unsubscribeStatus(db: DbOrTx, token: string): Promise<UnsubscribePage> {
  const { organizationId, email, organizationName } = await resolve(db, token);
  return { organizationName, email, unsubscribed: await isUnsubscribed(db, organizationId, email) };
}

/** The POST: that email gets no more campaigns from that organization. Doing it twice is the same as once. */
export async function unsubscribe(db: DbOrTx, token: string, options: { source: "page" | "one-click"; now: Date }): Promise<UnsubscribePage> {
  const { organizationId, email, organizationName } = await resolve(db, token);
  await db.insert(emailUnsubscribes).values({ organizationId, email, source: options.source, createdAt: options.now }).onConflictDoNothing();
  return { organizationName, email, unsubscribed: true };
}

export async function isUnsubscribed(db: DbOrTx, organizationId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(emailUnsubscribes)
    .where(and(eq(emailUnsubscribes.organizationId, organizationId), eq(emailUnsubscribes.email, email.trim().toLowerCase())));
  return Boolean(row);
}
