import type { Ctx } from "#server/context";
import { formatMoney } from "#common/money";
import { resaleListingsOfEvent } from "#server/resale/listings";

/** The event page's "Reventa oficial": each active listing with its words (never fails the page). */
export async function resaleOffersOf(ctx: Pick<Ctx, "db" | "now">, slug: string) {
  try {
    const offers = await resaleListingsOfEvent(ctx, slug);
    return offers.map((o) => ({
      id: o.id,
      ticketTypeName: o.ticketTypeName,
      price: formatMoney(o.price),
      faceValue: formatMoney(o.faceValue),
      when: o.startsAt.toLocaleString("es-AR", { timeZone: "America/Argentina/Buenos_Aires", weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" }),
      href: `/reventa/${o.id}`,
    }));
  } catch {
    return [];
  }
}
