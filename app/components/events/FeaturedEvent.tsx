import { Link } from "@remix-run/react";
import { WithoutNationalTaxes, type EventCardData } from "./EventCard";
import { EventImage } from "./EventImage";

/** The featured event's extra line: "sábado 20 de diciembre · 21:00" (the loader formats it). */
export interface FeaturedEventData extends EventCardData {
  longDateLabel: string;
}

/**
 * The storefront's hero: one event, image first, with its name, date, venue, price and one clear button.
 * On phones the image spans the screen and the details follow; from 900 px they sit side by side.
 */
export function FeaturedEvent({ event, label = "Destacado", headingLevel = 2 }: { event: FeaturedEventData; label?: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const free = event.priceLabel === "Gratis";
  return (
    <section
      aria-labelledby="evento-destacado"
      className="relative -mx-4 overflow-hidden border-y border-[var(--border)] bg-[var(--surface)] sm:mx-0 sm:rounded-2xl sm:border md:grid md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"
    >
      <EventImage
        imageUrl={event.imageUrl}
        alt=""
        category={event.category}
        categoryLabel={event.categoryLabel}
        priority
        sizes="(min-width: 1152px) 660px, (min-width: 900px) 58vw, 100vw"
      />
      <div className="flex flex-col gap-2 p-4 sm:p-6 md:justify-center lg:p-8">
        <p className="text-xs font-bold uppercase tracking-wider text-[var(--muted)]">
          {label} · {event.categoryLabel}
        </p>
        <Heading id="evento-destacado" className="text-2xl font-bold leading-tight [overflow-wrap:anywhere] sm:text-3xl lg:text-4xl">
          <Link to={`/eventos/${event.slug}`} className="hover:underline hover:underline-offset-4">
            {event.name}
          </Link>
        </Heading>
        <p className="font-bold text-[var(--accent)] first-letter:uppercase">
          <time dateTime={event.dateTime}>{event.longDateLabel}</time>
        </p>
        <p className="text-sm">
          {event.venueName} · {event.city}, {event.provinceLabel}
        </p>
        <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between md:mt-5">
          <div>
            <p className="text-lg font-bold">{event.soldOut ? "Agotado" : event.priceLabel}</p>
            <WithoutNationalTaxes event={event} />
          </div>
          <Link
            to={`/eventos/${event.slug}`}
            aria-describedby="evento-destacado"
            className="inline-flex min-h-12 items-center justify-center whitespace-nowrap rounded-lg bg-primary-500 px-6 text-base font-bold text-black hover:bg-primary-400"
          >
            {event.soldOut ? "Ver el evento" : free ? "Sacá tu entrada" : "Comprá tu entrada"}
          </Link>
        </div>
      </div>
    </section>
  );
}
