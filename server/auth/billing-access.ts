import crypto from "node:crypto";
import type { Ctx } from "#server/context";
import { authSecret } from "#server/env";

/**
 * Buyers without an account read their own purchase through links that carry
 * `?t=<token>`: an HMAC of the billing id with the app secret. The checkout
 * sets it in every link it makes (summary, provider back URLs, bank-transfer
 * page, confirmation, the tickets email), so the token is proof of having
 * started that checkout or received its email. It never expires: it only
 * reveals that purchase, like the order code printed on the tickets.
 */
export function billingAccessToken(billingId: string): string {
  return crypto.createHmac("sha256", authSecret()).update(`billing:${billingId}`).digest("base64url").slice(0, 32);
}

export function isBillingAccessToken(billingId: string, token: string | null | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(billingAccessToken(billingId));
  const given = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** `path` plus the billing's token as `t`, keeping any query it already has. */
export function withBillingToken(path: string, billingId: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}t=${billingAccessToken(billingId)}`;
}

/**
 * A link to one of a purchase's pages for whoever is reading it now. The token goes along only when they came with
 * it (a valid `t`) and are not signed in as the purchase's buyer: then it is what opens the page (and, signed in, what
 * claims a purchase made signed out). Someone who reads the purchase by their session — the buyer's account, a member
 * of the organization — never gets one minted into a URL: it would stay in their history, logs and whatever they
 * share, and opening it signed in would claim a stranger's purchase for them (server/tickets/tickets.ts).
 */
export function purchaseLink(ctx: Ctx, path: string, purchase: { billingId: string; token?: string | null; buyerUserId: string | null }): string {
  if (!isBillingAccessToken(purchase.billingId, purchase.token)) return path;
  if (ctx.actor.kind === "user" && purchase.buyerUserId === ctx.actor.userId) return path;
  return withBillingToken(path, purchase.billingId);
}
