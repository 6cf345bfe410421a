import { Link } from "@remix-run/react";
import { Badge } from "#app/components/ui/Badge";
import { EventImage } from "./EventImage";

/** What a card shows, already formatted by the loader (app/lib/catalogue.server.ts). */
export interface EventCardData {
  slug: string;
  name: string;
  imageUrl: string | null;
  category: string;
  categoryLabel: string;
  /** "HH:mm - dd/MM/yyyy", Buenos Aires time. */
  dateLabel: string;
  /** "sáb 20 dic · 21:00", what the card shows (the loader sets it; dateLabel when missing). */
  shortDateLabel?: string;
  /** ISO, for `<time dateTime>`. */
  dateTime: string;
  venueName: string;
  city: string;
  provinceLabel: string;
  /** "Desde $ 13.200,00" (the final price, service fee included: docs/prices.md), "Gratis" or null. */
  priceLabel: string | null;
  /** "Precio sin impuestos nacionales: $ X" of that same ticket; null or absent when it equals it. */
  withoutNationalTaxesLine?: string | null;
  soldOut: boolean;
  paused: boolean;
  organizationName: string;
}

/** "Precio sin impuestos nacionales: $ X" under a card's price, while there is a price to show. */
export function WithoutNationalTaxes({ event, className = "" }: { event: Pick<EventCardData, "soldOut" | "withoutNationalTaxesLine">; className?: string }) {
  if (event.soldOut || !event.withoutNationalTaxesLine) return null;
  return (
    <p className={`text-xs text-[var(--muted)] ${className}`} data-without-national-taxes="">
      {event.withoutNationalTaxesLine}
    </p>
  );
}

/** The card's picture width for `sizes`: half the screen on phones, a third from 900 px, a quarter (about 264 px) from 1024 px. */
export const CARD_IMAGE_SIZES = "(min-width: 1152px) 264px, (min-width: 1024px) 25vw, (min-width: 900px) 33vw, 50vw";

export function EventCard({ event, eager = false, headingLevel = 2 }: { event: EventCardData; eager?: boolean; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="relative flex w-full flex-col overflow-hidden rounded-xl border border-[var(--border)] bg-[var(--surface)] transition-colors focus-within:border-primary-500 hover:border-primary-500">
      <div className="relative">
        <EventImage imageUrl={event.imageUrl} alt="" category={event.category} categoryLabel={event.categoryLabel} eager={eager} sizes={CARD_IMAGE_SIZES} />
        {event.paused ? (
          <Badge tone="warning" className="absolute left-2 top-2 bg-amber-950/90 text-amber-100 dark:bg-amber-950/90">
            Venta pausada
          </Badge>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 sm:p-4">
        <p className="text-xs font-bold text-[var(--accent)] sm:text-sm">
          <time dateTime={event.dateTime}>{event.shortDateLabel ?? event.dateLabel}</time>
        </p>
        <Heading className="text-[0.9375rem] font-bold leading-snug [overflow-wrap:anywhere] [hyphens:auto] sm:text-lg">
          {/* The whole card is clickable through this link's ::after. */}
          <Link to={`/eventos/${event.slug}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {event.name}
          </Link>
        </Heading>
        <p className="text-xs text-[var(--muted)] sm:text-sm sm:text-[var(--text)]">
          {event.venueName} · {event.city}
        </p>
        <p className="hidden text-xs text-[var(--muted)] sm:block">Organiza {event.organizationName}</p>
        <p className="mt-auto pt-1.5 text-sm font-bold">
          {event.soldOut ? <span className="text-red-700 dark:text-red-400">Agotado</span> : (event.priceLabel ?? "")}
        </p>
        <WithoutNationalTaxes event={event} />
      </div>
    </article>
  );
}

/** The grid of cards: two columns on phones, three from 900 px, four from 1024 px. The first ones load eagerly. */
export function EventGrid({ events, headingLevel = 2, eagerCount = 2 }: { events: EventCardData[]; headingLevel?: 2 | 3; eagerCount?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4">
      {events.map((event, index) => (
        <li key={event.slug} className="flex min-w-0">
          <EventCard event={event} eager={index < eagerCount} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
