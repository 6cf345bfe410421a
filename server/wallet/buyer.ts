import type { Ctx } from "#server/context";
import { NotFound } from "#server/errors";
import { getPurchaseTickets } from "#server/orders/purchase-tickets";
import { buildApplePass } from "./apple-pass";
import { appleWalletConfig, googleWalletConfig, type AppleWalletConfig, type GoogleWalletConfig } from "./config";
import { googleSaveUrl } from "./google";
import { walletPassOfSerial, type WalletPassData } from "./pass-data";

const NOT_AVAILABLE = "Esta entrada no se puede agregar a la billetera.";

/**
 * One ticket of a purchase as its wallet pass, with the purchase page's
 * access (the buyer's account, the organization's members or the link's
 * token): only a valid ticket still held by the purchase (not voided, not
 * sent to someone else) of a confirmed purchase.
 */
async function passOfPurchaseTicket(ctx: Ctx, billingId: string, ticketId: string, token: string | null): Promise<WalletPassData> {
  const purchase = await getPurchaseTickets(ctx, billingId, { token });
  const ticket = purchase.tickets.find((t) => t.id === ticketId);
  if (purchase.state !== "confirmed" || !ticket || ticket.status === "voided" || ticket.transferredTo) throw new NotFound(NOT_AVAILABLE);
  const data = await walletPassOfSerial(ctx.db, ticketId);
  if (!data || data.voided) throw new NotFound(NOT_AVAILABLE);
  return data;
}

/** The `.pkpass` of one ticket for whoever may read its purchase (app/routes/tickets.$billingId.wallet.apple.$ticketId.ts). */
export async function applePassForBuyer(ctx: Ctx, input: { billingId: string; ticketId: string; token: string | null }, config: AppleWalletConfig | null = appleWalletConfig()): Promise<{ filename: string; body: Buffer }> {
  if (!config) throw new NotFound("Apple Wallet no está disponible.");
  const data = await passOfPurchaseTicket(ctx, input.billingId, input.ticketId, input.token);
  return { filename: `entrada-${data.orderCode}-${data.ticket.id.slice(0, 8)}.pkpass`, body: await buildApplePass(config, data) };
}

/** The "Guardar en Google Wallet" link of one ticket, same access as its purchase. */
export async function googleSaveUrlForBuyer(ctx: Ctx, input: { billingId: string; ticketId: string; token: string | null }, config: GoogleWalletConfig | null = googleWalletConfig()): Promise<string> {
  if (!config) throw new NotFound("Google Wallet no está disponible.");
  return googleSaveUrl(config, await passOfPurchaseTicket(ctx, input.billingId, input.ticketId, input.token), ctx.now);
}

export interface WalletLinks {
  apple: string | null;
  google: string | null;
}

/**
 * The wallet buttons' links for a ticket, from its purchase page's link
 * (`/tickets/{billingId}` with its `?t=` when it has one); null for a wallet
 * that is not set up. No links for a ticket without a QR (voided, sent) nor
 * for a consumición of the menu.
 */
export function walletLinksFor(purchasePath: string | null, ticket: { id: string; qrPayload: string; status: string; kind?: string }): WalletLinks | null {
  // Passes are entradas for the door; the bar's consumiciones stay on the page.
  if (ticket.kind === "menu") return null;
  const apple = appleWalletConfig() !== null;
  const google = googleWalletConfig() !== null;
  if (!purchasePath || (!apple && !google) || !ticket.qrPayload || ticket.status !== "redeemable") return null;
  const [path, query] = purchasePath.split("?");
  const link = (wallet: string) => `${path}/wallet/${wallet}/${ticket.id}${query ? `?${query}` : ""}`;
  return { apple: apple ? link("apple") : null, google: google ? link("google") : null };
}
