import { formatMoney } from "#common/money";
import { getDb } from "#server/db/client";
import { createMenuItem } from "#server/menu/menu";
import { startCheckout } from "#server/orders/checkout";
import { approveBankTransfer } from "#server/bank-transfers/bank-transfers";
import { listForResale } from "#server/resale/listings";
import { ticketsOfOrder } from "#server/tickets/issue";
import { actorFor, createTestUser, ctxAs } from "./context";
import { createEventWithTickets, createTransferAccount } from "./factories";
import { cookiesAfter, formRequest, run } from "./remix";

/*
 * Buyer pages' prices (docs/prices.md): fixtures and readers shared by app/routes/buyer-prices.test.ts and
 * app/routes/prices-monotributo.test.ts. Published events charge a 10 % service fee.
 */

/** A page's text, and the money figures in it in reading order. */
export function figures(html: string) {
  const text = html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;|\u00a0/g, " ")
    .replace(/\s+/g, " ");
  return { text, amounts: [...text.matchAll(/\$ [\d.]+,\d{2}/g)].map((m) => m[0]) };
}

/** An amount as `figures` reads it. */
export const plain = (cents: number) => formatMoney(cents).replace(/\u00a0/g, " ");

/** The HTML from the "Reventa oficial" heading on (the section at the foot of the event page). */
export const resaleSectionOf = (html: string) => html.slice(html.indexOf('id="reventa-oficial"'));

/**
 * An event with one General ticket of `price`, a buyer who paid one (by bank transfer, approved by the
 * organizer) and put it back in the official resale at that price: the event page lists it.
 */
export async function eventWithResaleListing(price: number) {
  const made = await createEventWithTickets([{ name: "General", price, stock: 10, paymentMethod: "BankAccount" }], { days: 20 });
  await createTransferAccount(made.ctx, made.organization.id);
  const user = await createTestUser();
  const seller = await ctxAs(actorFor({ ...user, roles: [] }));
  const payer = { firstName: "Lucía", lastName: "Fernández", email: user.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
  const placed = await startCheckout(seller, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer, paymentMethod: "BANK_TRANSFER" });
  await approveBankTransfer(made.ctx, { billingId: placed.billing.id });
  const [ticket] = await ticketsOfOrder(await getDb(), placed.order.id);
  const listing = await listForResale(seller, { ticketId: ticket.id, price });
  return { ...made, listing };
}

/** An event with a menu: a $ 4.500 drink and a $ 9.000 burger; `payerStepOf` puts 2 drinks and 1 burger in the cart. */
export async function eventWithMenu() {
  const made = await createEventWithTickets();
  const drink = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "10" });
  const burger = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Hamburguesa", category: "food", price: "9000", stock: "10" });
  return { ...made, drink, burger, path: `/menu/${made.event.slug}` };
}

/** The menu cart's cookies with 2 drinks and 1 burger ($ 18.000 + 10 %), picked through the page's own form. */
export async function menuCartCookies(menuAction: Parameters<typeof run>[0], made: Awaited<ReturnType<typeof eventWithMenu>>) {
  const picked = await run(menuAction, formRequest(made.path, { intent: "pick", [`qty.${made.drink.id}`]: "2", [`qty.${made.burger.id}`]: "1" }), { slug: made.event.slug });
  return cookiesAfter(picked);
}
