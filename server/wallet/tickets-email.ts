import type { TicketsEmailAddOns } from "#server/tickets/email";
import { walletLinksFor } from "./buyer";
import { staticQrValidFrom } from "./static-qr";

/**
 * What the tickets email (server/tickets/email.ts) takes from here: the wallet buttons of each ticket,
 * built on the purchase page's signed link so they work from a mail client with no session, and when a
 * live-QR event's static QR starts counting. The worker hands it in (server/worker/handlers.ts).
 */
export const ticketsEmailAddOns: TicketsEmailAddOns = {
  staticQrFrom: (db, event, now) => staticQrValidFrom(db, event, now),
  walletLinks: (purchasePath, ticket) => walletLinksFor(purchasePath, ticket),
};
