import { Form, Link, useRouteLoaderData } from "@remix-run/react";
import { AdPixel } from "#app/components/AdPixel";
import type { CouponRule } from "#common/pricing";
import type { PlatformIvaCondition } from "#common/tax-display";
import { Badge } from "#app/components/ui/Badge";
import { buttonClasses } from "#app/components/ui/Button";
import { CodeForm } from "./CodeForm";
import { DroppedNotice, ReferralBanner } from "./Notices";
import { EventImage } from "./EventImage";
import { TicketPicker, type PickerDate, type PickerErrors, type PickerTicket } from "./TicketPicker";
import { WaitlistJoin } from "#app/components/waitlist/WaitlistJoin";

export type { PickerDate, PickerTicket } from "./TicketPicker";

/** Everything the event page shows, formatted by its loader (app/routes/eventos.$slug.server.ts). */
export interface EventPageData {
  event: {
    slug: string;
    name: string;
    description: string;
    imageUrl: string | null;
    category: string;
    categoryLabel: string;
    minAge: number;
    paused: boolean;
    venue: { name: string; address: string; city: string; provinceLabel: string };
    mapsUrl: string;
    hasPresale: boolean;
    /** Basis points on what is paid (common/pricing.ts serviceFeeOf). */
    serviceFeeBps: number;
    serviceFeeLabel: string | null;
    /** For the picker's live "Precio sin impuestos nacionales" (common/tax-display.ts, decision 214). */
    ivaCondition: PlatformIvaCondition;
  };
  organization: { name: string; slug: string };
  dates: PickerDate[];
  tickets: PickerTicket[];
  /** "Desde $ X": the final price of the cheapest ticket to choose, or "Gratis"; null with none. */
  fromLabel?: string | null;
  /** Saved quantities to preselect. */
  selected: Record<string, number>;
  eventDateId: string | null;
  presaleUnlocked: boolean;
  accessCodeApplied: boolean;
  referrer: { firstName: string; lastName: string } | null;
  /** "Sacamos «VIP» de tu compra porque…" */
  dropped: string[];
  pixelId: string | null;
  /** Where the forms post: this page's own path (keeps the referral nick). */
  path: string;
  /** The coupon in the saved cart (from /canjear/{id} or the code form), checked now. */
  coupon?: {
    code: string;
    /** "20 % de descuento" */
    label: string;
    onlyFor: string[] | null;
    /** For the picker's live total. */
    rule: CouponRule;
  } | null;
  /** `/menu/{slug}` while the event's menu has something to order; else null (no link). */
  menuHref?: string | null;
  /** `/asientos/{slug}` while a ticket sold by seat is on sale; else null. */
  seatsHref?: string | null;
  /** The boxes that lead elsewhere (the menu, the seat map), with their words from the loader: none in this page's JavaScript. */
  linkBoxes?: LinkBoxData[];
  /** `/lista-de-espera/{slug}` while something is sold out and the event's waiting list is on; else null. */
  waitlistHref?: string | null;
}

export type EventPageActionData =
  | ({ intent: "comprar" } & PickerErrors)
  | { intent: "codigo"; codeError: string };

export function EventPage({ page, actionData }: { page: EventPageData; actionData?: EventPageActionData | null }) {
  // The root already loads the pixel of `?pixelId=`; the event's own pixel is added when it is another one.
  const root = useRouteLoaderData("root") as { pixelId?: string | null } | undefined;
  const { event, organization, dates } = page;
  const pickerErrors = actionData?.intent === "comprar" ? actionData : null;
  const codeError = actionData?.intent === "codigo" ? actionData.codeError : null;
  const firstDate = dates[0];

  return (
    <main className="mx-auto w-full max-w-6xl pb-32 sm:px-6 sm:pt-6 lg:pb-10">
      {pickerErrors ? <ErrorSummary errors={pickerErrors} /> : null}
      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-[minmax(0,1fr)_400px] lg:gap-10">
        <div className="flex flex-col gap-4">
          <EventImage
            imageUrl={event.imageUrl}
            alt={event.name}
            category={event.category}
            categoryLabel={event.categoryLabel}
            priority
            // From lg the image shares the row with the 400 px picker inside max-w-6xl: about 680 px wide.
            sizes="(min-width: 1024px) 680px, 100vw"
            className="sm:rounded-xl"
          />
          <div className="flex flex-col gap-4 px-4 sm:px-0">
            {page.referrer ? <ReferralBanner referrer={page.referrer} /> : null}
            {page.coupon ? <CouponBanner coupon={page.coupon} action={page.path} /> : null}
            {event.paused ? (
              <p role="status" className="rounded-lg border border-amber-500 bg-amber-500/15 px-4 py-3 font-bold">
                La venta está pausada. Volvé a mirar más tarde.
              </p>
            ) : null}
            <DroppedNotice messages={page.dropped} />
            <div className="flex flex-col gap-1">
              {/* The category once: the picture without a flyer already shows it. */}
              {event.imageUrl || event.minAge > 0 ? (
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  {event.imageUrl ? (
                    <Link to={`/?categoria=${encodeURIComponent(event.category)}`} className="font-bold text-[var(--accent)] underline-offset-2 hover:underline">
                      {event.categoryLabel}
                    </Link>
                  ) : null}
                  {event.minAge > 0 ? <Badge tone="warning">+{event.minAge}</Badge> : null}
                </div>
              ) : null}
              <h1 className="text-3xl font-bold leading-tight sm:text-4xl">{event.name}</h1>
              <p className="text-sm text-[var(--muted)]">
                Organiza{" "}
                <Link to={`/${organization.slug}`} className="font-bold text-[var(--accent)] underline underline-offset-2">
                  {organization.name}
                </Link>
              </p>
            </div>
            <WhenAndWhere page={page} />
            {event.minAge > 0 ? (
              <p className="rounded-lg border border-[var(--border)] px-3 py-2 text-sm">
                {`Solo para mayores de ${event.minAge} años. Llevá tu DNI: te lo pueden pedir en la puerta.`}
              </p>
            ) : null}
            {page.linkBoxes?.filter((box) => !box.primary).map((box) => <LinkBox key={box.id} {...box} />)}
          </div>
        </div>

        <aside className="flex flex-col gap-4 px-4 sm:px-0 lg:col-start-2 lg:row-span-2 lg:row-start-1" aria-label="Comprar entradas">
          <div className="flex flex-col gap-4 lg:sticky lg:top-[calc(var(--spacing-header)+var(--spacing-test-banner)+1rem)]">
            {page.linkBoxes?.filter((box) => box.primary).map((box) => <LinkBox key={box.id} {...box} />)}
            <TicketPicker
              action={page.path}
              tickets={page.tickets}
              dates={dates}
              paused={event.paused}
              selected={page.selected}
              eventDateId={page.eventDateId ?? (dates.length === 1 && firstDate ? firstDate.id : null)}
              errors={pickerErrors}
              serviceFeeBps={event.serviceFeeBps}
              serviceFeeLabel={event.serviceFeeLabel}
              ivaCondition={event.ivaCondition}
              fromLabel={page.fromLabel}
              coupon={page.coupon?.rule ?? null}
            />
            {page.waitlistHref ? <WaitlistJoin href={page.waitlistHref} /> : null}
            {event.paused ? null : (
              <CodeForm
                action={page.path}
                error={codeError}
                presaleUnlocked={page.presaleUnlocked}
                accessCodeApplied={page.accessCodeApplied}
                hasPresale={event.hasPresale}
              />
            )}
          </div>
        </aside>

        {event.description ? (
          <section aria-labelledby="descripcion" className="px-4 sm:px-0 lg:col-start-1 lg:row-start-2">
            <h2 id="descripcion" className="text-xl font-bold">
              Sobre el evento
            </h2>
            {/* Plain text: React escapes it; line breaks are kept by CSS. */}
            <p className="mt-2 whitespace-pre-line leading-relaxed">{event.description}</p>
          </section>
        ) : null}
      </div>
      {page.pixelId && page.pixelId !== root?.pixelId ? <AdPixel pixelId={page.pixelId} /> : null}
    </main>
  );
}

export interface LinkBoxData {
  id: string;
  title: string;
  text: string;
  href: string;
  action: string;
  /** The way to buy (beside the picker); otherwise an extra (under the event's details). */
  primary?: boolean;
}

/** A box that leads elsewhere: the menu (consumiciones paid from the phone, picked up at the bar with their QR) or the seat map. */
function LinkBox({ id, title, text, href, action, primary }: LinkBoxData) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h2 id={id} className="text-lg font-bold">
          {title}
        </h2>
        <p className="text-sm text-[var(--muted)]">{text}</p>
      </div>
      <Link to={href} className={buttonClasses(primary ? "primary" : "secondary", "min-h-11 shrink-0")}>
        {action}
      </Link>
    </section>
  );
}

function CalendarIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 size-5 shrink-0 text-[var(--accent)]" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <rect x="3.5" y="5" width="17" height="15" rx="2" />
      <path d="M3.5 10h17M8 3v4M16 3v4" />
    </svg>
  );
}

function PinIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 size-5 shrink-0 text-[var(--accent)]" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21Z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </svg>
  );
}

/**
 * When and where, compact: one date is said once with its start and doors
 * time; several dates are said once too, in the picker where the buyer
 * chooses one (day, start and doors).
 */
function WhenAndWhere({ page }: { page: EventPageData }) {
  const { event, dates } = page;
  const only = dates.length === 1 ? dates[0] : undefined;
  return (
    <dl className="flex flex-col divide-y divide-[var(--border)] rounded-xl border border-[var(--border)] bg-[var(--surface)] text-sm">
      <div className="flex gap-3 px-4 py-3">
        {/* dt and dd straight under the div: a <dl> allows nothing else between them. */}
        <dt>
          <CalendarIcon />
          <span className="sr-only">{dates.length > 1 ? "Fechas" : "Fecha"}</span>
        </dt>
        {only ? (
          <dd className="min-w-0">
            <span className="block font-bold">{only.dayLabel}</span>
            <span className="block text-[var(--muted)]">
              Empieza <time dateTime={only.startsIso}>{only.timeLabel}</time>
              {only.doorsLabel ? ` · Puertas ${only.doorsLabel}` : null}
            </span>
          </dd>
        ) : dates.length ? (
          <dd className="min-w-0">
            <span className="block font-bold">{`${dates.length} fechas`}</span>
            <a href="#entradas-titulo" className="text-[var(--accent)] underline underline-offset-2">
              Elegí el día en Entradas
            </a>
          </dd>
        ) : (
          <dd className="min-w-0">No hay fechas próximas.</dd>
        )}
      </div>
      <div className="flex gap-3 px-4 py-3">
        <dt>
          <PinIcon />
          <span className="sr-only">Lugar</span>
        </dt>
        <dd className="min-w-0">
          <span className="block font-bold">{event.venue.name}</span>
          <span className="block text-[var(--muted)]">
            {event.venue.address}, {event.venue.city}, {event.venue.provinceLabel}
          </span>
          <a href={event.mapsUrl} target="_blank" rel="noopener noreferrer" className="text-[var(--accent)] underline underline-offset-2">
            Ver en Google Maps
          </a>
        </dd>
      </div>
    </dl>
  );
}

/** "Cupón VERANO20 aplicado: 20 % de descuento"; the picker's total shows the discount (in the checkout's order). */
function CouponBanner({ coupon, action }: { coupon: NonNullable<EventPageData["coupon"]>; action: string }) {
  return (
    <div role="status" data-coupon={coupon.code} className="rounded-lg border border-primary-500/40 bg-primary-500/10 px-4 py-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-bold">
          Cupón {coupon.code} aplicado: {coupon.label}
        </p>
        <Form method="post" action={action}>
          <button type="submit" name="intent" value="quitar-cupon" className="min-h-6 text-xs underline underline-offset-2">
            Quitar cupón
          </button>
        </Form>
      </div>
      {coupon.onlyFor ? <p className="mt-1">Vale para: {coupon.onlyFor.join(", ")}.</p> : null}
      <p className="mt-1 text-[var(--muted)]">El descuento se resta antes del cargo de servicio.</p>
    </div>
  );
}

/**
 * After a refused submission the page comes back from the top (without
 * JavaScript, a whole new page): say at once what to fix, with a link down
 * to the picker where each message sits next to its ticket.
 */
function ErrorSummary({ errors }: { errors: PickerErrors }) {
  const messages = [...errors.formErrors, ...Object.values(errors.fieldErrors).flat()];
  if (!messages.length) return null;
  return (
    <div role="alert" className="mx-4 mt-4 rounded-lg border border-red-500 bg-red-50 px-4 py-3 text-sm text-red-900 sm:mx-0 sm:mt-0 sm:mb-4 dark:bg-red-950/40 dark:text-red-100">
      <p className="font-bold">Revisá tu elección</p>
      <ul className="mt-1 list-disc pl-5">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
      <a href="#entradas-titulo" className="mt-1 inline-block font-bold underline underline-offset-2">
        Ir a las entradas
      </a>
    </div>
  );
}
