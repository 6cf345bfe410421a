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
  /** ISO, for `<time dateTime>`. */
  dateTime: string;
  venueName: string;
  city: string;
  provinceLabel: string;
  /** "Desde $ 12.000,00", "Gratis" or null. */
  priceLabel: string | null;
  soldOut: boolean;
  paused: boolean;
  organizationName: string;
}

export function EventCard({ event, eager = false, headingLevel = 2 }: { event: EventCardData; eager?: boolean; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="relative flex w-full flex-col overflow-hidden rounded-xl border border-[var(--border)] bg-[var(--surface)] transition-colors focus-within:border-primary-500 hover:border-primary-500">
      <div className="relative">
        <EventImage imageUrl={event.imageUrl} alt="" category={event.category} categoryLabel={event.categoryLabel} eager={eager} />
        {event.paused ? (
          <Badge tone="warning" className="absolute left-3 top-3 bg-amber-950/90 text-amber-100 dark:bg-amber-950/90">
            Venta pausada
          </Badge>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <p className="text-sm font-bold text-[var(--accent)]">
          <time dateTime={event.dateTime}>{event.dateLabel}</time>
        </p>
        <Heading className="text-lg font-bold leading-snug">
          {/* The whole card is clickable through this link's ::after. */}
          <Link to={`/eventos/${event.slug}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {event.name}
          </Link>
        </Heading>
        <p className="text-sm">
          {event.venueName} · {event.city}
        </p>
        <p className="text-xs text-[var(--muted)]">Organiza {event.organizationName}</p>
        <p className="mt-auto pt-2 text-sm font-bold">
          {event.soldOut ? <span className="text-red-700 dark:text-red-400">Agotado</span> : (event.priceLabel ?? "")}
        </p>
      </div>
    </article>
  );
}

/** The grid of cards: one column on phones, more as the screen grows. The first ones load eagerly. */
export function EventGrid({ events, headingLevel = 2, eagerCount = 2 }: { events: EventCardData[]; headingLevel?: 2 | 3; eagerCount?: number }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {events.map((event, index) => (
        <li key={event.slug} className="flex">
          <EventCard event={event} eager={index < eagerCount} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
