import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { formatEventStart } from "#common/dates";
import { isDomainError } from "#server/errors";
import { seatLabel } from "#common/seating";
import { buyerSeating, itemsForSeats, proposeBestSeats } from "#server/seating/buyer";
import { readSavedCart, savedCartCookie } from "#app/lib/cart.server";
import { getRequestContext } from "#app/lib/session.server";
import { SeatMap } from "#app/components/seating/SeatMap";
import { Button } from "#app/components/ui/Button";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Elegí tus asientos: ${data.event.name} · Tribuna` : "Asientos · Tribuna" }];

/**
 * `/asientos/{slug}` (docs/seating.md): the map of a seated event's date. Without JavaScript the
 * best-available form proposes seats and shows them before the payer form; with it, seats are also
 * picked on the map. Either way the seats go in the saved cart and are held by createOrder.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const slug = (params.slug ?? "").toLowerCase();
  const fecha = new URL(request.url).searchParams.get("fecha");
  const seating = await buyerSeating(ctx, slug, fecha).catch((error: unknown) => {
    if (isDomainError(error) && error.code === "NOT_FOUND") throw data({ message: error.message }, { status: 404 });
    throw error;
  });
  headers.set("Cache-Control", "private, no-store");
  const saved = readSavedCart(request, slug);
  return data(
    {
      event: seating.event,
      date: { id: seating.date.id, label: formatEventStart(seating.date.startsAt) },
      dates: seating.dates.length > 1 ? seating.dates.map((d) => ({ id: d.id, label: formatEventStart(d.startsAt) })) : [],
      plan: seating.plan,
      seats: seating.seats,
      categories: seating.categories,
      maxPerOrder: seating.maxPerOrder,
      chosen: saved?.eventDateId === seating.date.id ? saved.seats ?? [] : [],
    },
    { headers },
  );
}

type ActionAnswer =
  | { proposal: { guid: string; label: string }[]; category: string; quantity: number; errors?: undefined }
  | { proposal?: undefined; errors: Record<string, string[]>; category?: string; quantity?: number };

export async function action({ request, params }: ActionFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-store");
  const slug = (params.slug ?? "").toLowerCase();
  const form = await request.formData();
  const eventDateId = String(form.get("eventDateId") ?? "");
  const fail = (error: unknown, field: string, extra: Partial<ActionAnswer> = {}) => {
    if (!isDomainError(error)) throw error;
    const errors = Object.keys(error.fieldErrors).length ? { [field]: Object.values(error.fieldErrors).flat() } : { [field]: [error.message] };
    return data({ ...extra, errors } as ActionAnswer, { status: error.code === "NOT_FOUND" ? 404 : 400, headers });
  };
  if (form.get("intent") === "best") {
    const category = String(form.get("category") ?? "");
    const quantity = Number(form.get("quantity") ?? "");
    try {
      const seats = await proposeBestSeats(ctx, slug, { eventDateId, category, quantity });
      return data({ proposal: seats.map((s) => ({ guid: s.guid, label: seatLabel(s) ?? "" })), category, quantity } as ActionAnswer, { headers });
    } catch (error) {
      return fail(error, "best", { category, quantity });
    }
  }
  const seats = form.getAll("seats").map(String).filter(Boolean);
  try {
    const items = await itemsForSeats(ctx, slug, seats);
    const saved = readSavedCart(request, slug) ?? { items: [] };
    headers.append("Set-Cookie", savedCartCookie(slug, { ...saved, items, seats, eventDateId }));
    return redirect(`/checkout/payer-info/${slug}`, { headers });
  } catch (error) {
    return fail(error, "seats");
  }
}

export default function SeatsPage() {
  const { event, date, dates, plan, seats, categories, maxPerOrder, chosen } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as ActionAnswer | undefined;
  const [selected, setSelected] = useState<string[]>(chosen);
  const submitting = useIsSubmitting();
  const priceLabels = Object.fromEntries(categories.map((c) => [c.name, c.priceLabel]));
  const toggle = (guid: string) => setSelected((now) => (now.includes(guid) ? now.filter((g) => g !== guid) : [...now, guid]));
  const anyFree = categories.some((c) => c.free > 0);

  return (
    <main className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-6">
      <header>
        <p className="text-sm text-[var(--muted)]">
          <Link to={`/eventos/${event.slug}`} className="underline underline-offset-2">
            {event.name}
          </Link>{" "}
          · {date.label}
        </p>
        <h1 className="mt-1 text-2xl font-black">Elegí tus asientos</h1>
      </header>

      {dates.length ? (
        <nav aria-label="Fechas">
          <ul className="flex flex-wrap gap-2">
            {dates.map((d) => (
              <li key={d.id}>
                <Link to={`?fecha=${d.id}`} aria-current={d.id === date.id ? "page" : undefined} className="inline-flex min-h-11 items-center rounded-lg border border-[var(--border)] px-3 text-sm aria-[current=page]:border-primary-500 aria-[current=page]:font-bold">
                  {d.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      <section aria-labelledby="ubicaciones">
        <h2 id="ubicaciones" className="text-lg font-bold">
          Ubicaciones y precios
        </h2>
        <ul className="mt-2 flex flex-col gap-2">
          {categories.map((c) => (
            <li key={c.name} className="flex flex-wrap items-baseline justify-between gap-x-3 rounded-lg border border-[var(--border)] px-3 py-2">
              <span className="font-bold">{c.name}</span>
              <span className="text-right">
                {/* The final price first (docs/prices.md). */}
                <span className="text-lg font-black tabular-nums">{c.priceLabel}</span>
                {c.withoutNationalTaxesLabel ? <span className="block text-xs text-[var(--muted)]">Precio sin impuestos nacionales: {c.withoutNationalTaxesLabel}</span> : null}
                <span className="block text-xs text-[var(--muted)]">{c.free ? `${c.free.toLocaleString("es-AR")} libres` : "Agotado"}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>

      {anyFree ? (
        <section aria-labelledby="mejores" className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
          <h2 id="mejores" className="text-lg font-bold">
            Mejor ubicación disponible
          </h2>
          <p className="mt-1 text-sm text-[var(--muted)]">Te buscamos asientos juntos en una misma fila, lo más cerca posible del escenario.</p>
          <Form method="post" className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-[1fr_8rem_auto] sm:items-end">
            <input type="hidden" name="intent" value="best" />
            <input type="hidden" name="eventDateId" value={date.id} />
            <label className="flex flex-col gap-1 text-sm font-bold">
              Ubicación
              <select name="category" defaultValue={answer?.category ?? categories.find((c) => c.free > 0)?.name} className="min-h-11 rounded-lg border border-[var(--border)] bg-[var(--bg)] px-3 font-normal">
                {categories
                  .filter((c) => c.free > 0)
                  .map((c) => (
                    <option key={c.name} value={c.name}>
                      {c.name} · {c.priceLabel}
                    </option>
                  ))}
              </select>
            </label>
            <label className="flex flex-col gap-1 text-sm font-bold">
              Cantidad
              <select name="quantity" defaultValue={String(answer?.quantity ?? 2)} className="min-h-11 rounded-lg border border-[var(--border)] bg-[var(--bg)] px-3 font-normal">
                {Array.from({ length: maxPerOrder }, (_, i) => i + 1).map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="secondary" className="min-h-11" pending={submitting} pendingLabel="Buscando…">
              Buscar asientos
            </Button>
          </Form>
          {answer?.errors?.best ? (
            <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
              {answer.errors.best.join(" ")}
            </p>
          ) : null}
          {answer?.proposal ? (
            <Form method="post" className="mt-4 flex flex-col gap-3" data-testid="best-proposal">
              <p className="font-bold" role="status">
                Te proponemos {answer.proposal.length === 1 ? "este asiento" : `estos ${answer.proposal.length} asientos`}:
              </p>
              <ul className="flex flex-col gap-1 text-sm">
                {answer.proposal.map((seat) => (
                  <li key={seat.guid}>
                    {seat.label}
                    <input type="hidden" name="seats" value={seat.guid} />
                  </li>
                ))}
              </ul>
              <input type="hidden" name="eventDateId" value={date.id} />
              <Button type="submit" className="min-h-11 self-start">
                Continuar con estos asientos
              </Button>
            </Form>
          ) : null}
        </section>
      ) : (
        <p role="status" className="rounded-xl border border-[var(--border)] p-4 font-bold">
          Agotado: no quedan asientos libres para esta fecha.
        </p>
      )}

      <section aria-labelledby="mapa">
        <h2 id="mapa" className="text-lg font-bold">
          O elegilos en el mapa
        </h2>
        <noscript>
          <p className="mt-1 text-sm text-[var(--muted)]">Para tocar los asientos en el mapa activá JavaScript; sin él, usá la mejor ubicación disponible.</p>
        </noscript>
        <Form method="post" className="mt-3 flex flex-col gap-3">
          <input type="hidden" name="eventDateId" value={date.id} />
          <SeatMap plan={plan} seats={seats} priceLabels={priceLabels} selected={selected} onToggle={toggle} maxSelected={maxPerOrder} />
          {answer?.errors?.seats ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {answer.errors.seats.join(" ")}
            </p>
          ) : null}
          <Button type="submit" className="min-h-11 self-start" disabled={!selected.length} pending={submitting} pendingLabel="Un momento…">
            Continuar
          </Button>
        </Form>
      </section>
    </main>
  );
}
