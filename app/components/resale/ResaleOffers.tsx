import { Link } from "@remix-run/react";
import { buttonClasses } from "#app/components/ui/Button";

export interface ResaleOfferView {
  id: string;
  ticketTypeName: string;
  /** The final price the resale buyer pays (service fee included), formatted by the loader. */
  finalPrice: string;
  /**
   * The small print under it, in order: "Precio sin impuestos nacionales: $ …" (when it differs from the final
   * price), then "Incluye $ … de cargo de servicio" (with a fee). Strings from the loader: the page's JavaScript
   * is at its budget.
   */
  notes: string[];
  when: string;
  href: string;
  /** The buy link's accessible name: "Comprar General de reventa a $ 11.000,00". */
  buyLabel: string;
}

/** "Reventa oficial" on the event page: tickets people who cannot go put back, at most at the price they paid (docs/resale.md). */
export function ResaleOffers({ offers }: { offers: ResaleOfferView[] | undefined }) {
  if (!offers?.length) return null;
  return (
    <section aria-labelledby="reventa-oficial" className="mx-auto w-full max-w-5xl px-4 pb-10">
      <h2 id="reventa-oficial" className="text-xl font-bold">
        Reventa oficial
      </h2>
      <p className="mt-1 text-sm text-[var(--muted)]">
        Entradas de personas que no pueden ir, al precio que pagaron o menos. Al comprarla recibís una entrada nueva a tu nombre; el QR anterior deja de servir.
      </p>
      <ul className="mt-3 flex flex-col gap-2">
        {offers.map((offer) => (
          <li key={offer.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-[var(--border)] p-3">
            <div>
              <p className="font-semibold">{offer.ticketTypeName}</p>
              <p className="text-sm text-[var(--muted)]">{offer.when}</p>
              {/* The final price first and most prominent, the price without national taxes beside it (docs/prices.md). */}
              <p className="mt-1 text-lg font-bold">{offer.finalPrice}</p>
              {offer.notes.map((note) => (
                <p key={note} className="text-xs text-[var(--muted)]">
                  {note}
                </p>
              ))}
            </div>
            <Link to={offer.href} className={buttonClasses("primary")} aria-label={offer.buyLabel}>
              Comprar
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
