import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#app/lib/dates";
import { formatMoney } from "#app/lib/money";
import { cacheHeadersFrom } from "#app/lib/cache.server";
import { readSavedCart, restoreCart, savedCartCookie, type StoredCart } from "#app/lib/cart.server";
import { getRequestContext } from "#app/lib/session.server";
import { DroppedNotice, ReferralBanner } from "#app/components/events/Notices";
import { buttonClasses } from "#app/components/ui/Button";
import { eventPath, findReferrer, loadPublicEventOr404, longDay } from "./eventos.$slug.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Tu compra: ${data.event.name} · Tribuna` : "Tu compra · Tribuna" },
  { name: "robots", content: "noindex" },
];

/**
 * `/checkout/payer-info/{eventSlug}`, first part: the saved cart restored
 * against the event as it is now (what was dropped and why; the cookie is
 * rewritten with what is left). Buyer data and payment come next (issue 4).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const slug = (params.eventSlug ?? "").toLowerCase();
  const { ctx, headers } = await getRequestContext(request);
  const saved = readSavedCart(request, slug);
  const publicEvent = await loadPublicEventOr404(ctx, slug, { accessCode: saved?.accessCode, presaleCode: saved?.presaleCode });

  let cart: StoredCart = { items: [] };
  let dropped: string[] = [];
  if (saved) {
    const restored = restoreCart(publicEvent, saved);
    cart = restored.cart;
    dropped = restored.messages;
    if (restored.changed) headers.append("Set-Cookie", savedCartCookie(publicEvent.event.slug, cart));
  }
  const referrer = cart.referredNick ? await findReferrer(ctx, cart.referredNick) : null;

  const tickets = new Map(publicEvent.ticketTypes.map((t) => [t.id, t]));
  const items = cart.items.flatMap((item) => {
    const ticket = tickets.get(item.ticketId);
    if (!ticket) return [];
    return [{ ticketId: item.ticketId, name: ticket.name, qty: item.qty, unitPrice: formatMoney(ticket.price), subtotalCentavos: ticket.price * item.qty }];
  });
  const subtotal = items.reduce((sum, i) => sum + i.subtotalCentavos, 0);
  const { dates, event } = publicEvent;
  const date = dates.find((d) => d.id === cart.eventDateId) ?? (dates.length === 1 ? dates[0] : undefined);

  headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { name: event.name, slug: event.slug, venue: `${event.venue.name}, ${event.venue.city}` },
      date: date ? { dayLabel: longDay(date.startsAt), startsLabel: formatDateTime(date.startsAt), startsIso: date.startsAt.toISOString() } : null,
      needsDate: !date && dates.length > 1,
      items: items.map(({ subtotalCentavos, ...i }) => ({ ...i, subtotal: formatMoney(subtotalCentavos) })),
      subtotal: formatMoney(subtotal),
      serviceFeeLabel: event.serviceFeeBps > 0 ? `${(event.serviceFeeBps / 100).toLocaleString("es-AR", { maximumFractionDigits: 2 })} %` : null,
      dropped,
      referrer: referrer ? { firstName: referrer.firstName, lastName: referrer.lastName } : null,
      backTo: eventPath(event.slug, referrer?.nick),
    },
    { headers },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => cacheHeadersFrom(loaderHeaders);

export default function PayerInfoPage() {
  const { event, date, needsDate, items, subtotal, serviceFeeLabel, dropped, referrer, backTo } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-4 py-6 sm:px-6 sm:py-8">
      <header>
        <p className="text-sm font-bold tracking-wide text-[var(--accent)]">TU COMPRA</p>
        <h1 className="text-2xl font-bold leading-tight sm:text-3xl">{event.name}</h1>
        <p className="mt-1 text-sm text-[var(--muted)]">{event.venue}</p>
        {date ? (
          <p className="mt-1 text-sm">
            <span>{date.dayLabel}</span> · <time dateTime={date.startsIso}>{date.startsLabel}</time>
          </p>
        ) : null}
      </header>

      {referrer ? <ReferralBanner referrer={referrer} /> : null}
      <DroppedNotice messages={dropped} />

      {items.length ? (
        <section aria-labelledby="elegiste" className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
          <h2 id="elegiste" className="text-lg font-bold">
            Lo que elegiste
          </h2>
          <ul className="mt-3 divide-y divide-[var(--border)]">
            {items.map((item) => (
              <li key={item.ticketId} data-ticket={item.name} className="flex items-baseline justify-between gap-3 py-2">
                <span>
                  <span className="font-bold">{item.qty}</span> × {item.name}
                  <span className="block text-xs text-[var(--muted)]">{item.unitPrice} c/u</span>
                </span>
                <span className="font-medium">{item.subtotal}</span>
              </li>
            ))}
          </ul>
          <p className="mt-2 flex justify-between border-t border-[var(--border)] pt-3 font-bold">
            <span>Subtotal</span>
            <span>{subtotal}</span>
          </p>
          {serviceFeeLabel ? <p className="mt-1 text-xs text-[var(--muted)]">Al pagar se suma el cargo de servicio ({serviceFeeLabel}).</p> : null}
          {needsDate ? (
            <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
              Te falta elegir la fecha. <Link to={backTo} className="underline">Elegila acá</Link>.
            </p>
          ) : null}
        </section>
      ) : (
        <section className="rounded-xl border border-dashed border-[var(--border)] px-4 py-8 text-center">
          <h2 className="text-lg font-bold">Tu compra está vacía</h2>
          <p className="mt-1 text-sm text-[var(--muted)]">Elegí tus entradas en la página del evento.</p>
        </section>
      )}

      <p role="note" className="rounded-lg border border-primary-500/40 bg-primary-500/10 px-4 py-3 text-sm">
        Próximamente vas a poder completar tus datos y pagar desde acá. Por ahora guardamos tu elección durante dos días en este
        dispositivo.
      </p>

      <div className="flex flex-wrap gap-3">
        <Link to={backTo} className={buttonClasses(items.length ? "secondary" : "primary", "min-h-11")}>
          {items.length ? "Cambiar entradas" : "Volver al evento"}
        </Link>
        <Link to="/" className={buttonClasses("ghost", "min-h-11")}>
          Ver otros eventos
        </Link>
      </div>
    </main>
  );
}
