import type { Ctx } from "#server/context";
import { withoutNationalTaxesLine } from "#common/tax-display";
import { unitPriceFigures } from "#server/orders/price-display";
import { resaleListingsOfEvent } from "#server/resale/listings";

/**
 * The event page's "Reventa oficial": each active listing with its words (never fails the page).
 * Its price is the final one the resale buyer pays, the listing's price plus the event's service
 * fee on it (as /reventa/{listingId} computes it), with the price without national taxes beside
 * it (docs/prices.md): worked out here, on the server, so the page's browser code stays the same.
 */
export async function resaleOffersOf(ctx: Pick<Ctx, "db" | "now">, slug: string) {
  try {
    const offers = await resaleListingsOfEvent(ctx, slug);
    return offers.map((o) => {
      const figures = unitPriceFigures(o.price, o.serviceFeeBps);
      return {
        id: o.id,
        ticketTypeName: o.ticketTypeName,
        finalPrice: figures.final,
        // The price without national taxes beside it (when it differs), then what the final price includes.
        notes: [
          figures.withoutNationalTaxes === null ? null : withoutNationalTaxesLine(figures.withoutNationalTaxes),
          figures.serviceFee ? `Incluye ${figures.serviceFee} de cargo de servicio` : null,
        ].filter((note): note is string => note !== null),
        when: o.startsAt.toLocaleString("es-AR", { timeZone: "America/Argentina/Buenos_Aires", weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" }),
        href: `/reventa/${o.id}`,
        buyLabel: `Comprar ${o.ticketTypeName} de reventa a ${figures.final}`,
      };
    });
  } catch {
    return [];
  }
}
