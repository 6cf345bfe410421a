import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useRevalidator, useSubmit } from "@remix-run/react";
import { formatEventStart } from "#common/dates";
import { blockSeats, getSeatingAdmin, organizerEventBySlug, releaseSeats, setEventSeating } from "#server/seating/event-seating";
import { failedReply, formToObject, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, DefaultSubmit, FormErrorList, FormSnackbar, SelectInput, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { SeatChecklist } from "#app/components/seating-admin/SeatChecklist";
import { SEAT_STATES, SeatStateLegend, SeatStateMap, STATE_COUNT_LABELS } from "#app/components/seating-admin/SeatStateMap";
import { SelectField } from "#app/components/ui/Select";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Asientos numerados · Tribuna" }];

/** The live map refreshes every few seconds while the page is open (with JavaScript; without it, "Actualizar"). */
const LIVE_REFRESH_MS = 5000;

/** Why seats are taken off sale: what the organizer picks; stored as the block's reason. */
const REASONS = [
  { value: "Producción", label: "Producción (cámaras, sonido, escenografía)" },
  { value: "Prensa", label: "Prensa" },
  { value: "Accesibilidad", label: "Accesibilidad (acompañantes, espacio para silla de ruedas)" },
  { value: "Invitados", label: "Invitados" },
];

/** Our own query parameters: the map shown in the assignment and the date of the live map. */
const MAP_PARAM = "mapa";
const DATE_PARAM = "fecha";

/**
 * `/organizacion/eventos/{slug}/asientos`: which seat map the event uses and which ticket type sells each
 * category (setEventSeating), and each date's seats live, to block or release (docs/seating.md).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request);
  const url = new URL(request.url);
  const view = await guard(() => getSeatingAdmin(bo.ctx, { slug: params.slug ?? "", seatMapId: url.searchParams.get(MAP_PARAM), eventDateId: url.searchParams.get(DATE_PARAM) }));
  bo.headers.set("Cache-Control", "private, no-store");

  const chosenMap = view.maps.find((m) => m.id === view.chosenMapId) ?? null;
  const dateLabel = new Map(view.dates.map((d) => [d.id, formatEventStart(d.startsAt)]));
  // The form starts from the event's assignment; on another map, from the ticket type named like the category.
  const assignDefaults: Record<string, string> = { seatMapId: chosenMap?.id ?? "" };
  chosenMap?.categories.forEach((category, i) => {
    const assigned = view.current?.seatMapId === chosenMap.id ? view.current.categories[category.name] : undefined;
    const sameName = view.ticketTypes.find((t) => t.name.trim().toLowerCase() === category.name.trim().toLowerCase());
    assignDefaults[`categories[${i}].category`] = category.name;
    assignDefaults[`categories[${i}].ticketTypeId`] = assigned ?? sameName?.id ?? "";
  });

  return data(
    {
      event: { id: view.event.id, name: view.event.name, slug: view.event.slug },
      maps: view.maps.map((m) => ({ value: m.id, label: `${m.name} (${m.seats.toLocaleString("es-AR")} asientos)` })),
      chosenMap,
      currentMapName: view.current ? (view.maps.find((m) => m.id === view.current!.seatMapId)?.name ?? null) : null,
      assignDefaults,
      ticketTypeOptions: view.ticketTypes.map((t) => ({ value: t.id, label: t.eventDateId && view.dates.length > 1 ? `${t.name} (${dateLabel.get(t.eventDateId) ?? "otra fecha"})` : t.name })),
      seatedTypes: view.ticketTypes.filter((t) => t.seats > 0).map((t) => ({ id: t.id, name: t.name, seats: t.seats, stock: t.stock, sold: t.sold })),
      dates: view.dates.map((d) => ({ value: d.id, label: dateLabel.get(d.id)! })),
      eventDateId: view.eventDateId,
      live: view.live
        ? {
            plan: { size: view.live.plan.size, shapes: view.live.plan.shapes, categories: view.live.plan.categories, sections: view.live.plan.sections.filter((s) => s.kind === "standing").map((s) => ({ ...s, rows: [] })) },
            seats: view.live.seats.map((s) => ({ guid: s.guid, x: s.x, y: s.y, section: s.section, row: s.row, number: s.number, category: s.category, accessible: s.accessible, restrictedView: s.restrictedView, state: s.state, reason: s.reason })),
            counts: view.live.counts,
            updatedLabel: bo.ctx.now.toLocaleTimeString("es-AR", { timeZone: "America/Argentina/Buenos_Aires", hour: "2-digit", minute: "2-digit", second: "2-digit" }),
          }
        : null,
    },
    { headers: bo.headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  // Several checkboxes share the name `seats`: read them before readForm keeps only the last.
  const seats = (await request.clone().formData()).getAll("seats").filter((v): v is string => typeof v === "string");
  const { values } = await readForm(request);
  const event = await guard(() => organizerEventBySlug(bo.ctx, params.slug ?? ""));
  const url = new URL(request.url);
  const here = `${url.pathname}${url.search}`;

  if (values.intent === "block" || values.intent === "release") {
    const input = { eventId: event.id, eventDateId: values.eventDateId ?? "", seats };
    try {
      if (values.intent === "block") {
        const reason = [values.reason, values.reasonDetail?.trim()].filter(Boolean).join(": ");
        const blocked = await blockSeats(bo.ctx, { ...input, reason });
        return savedRedirect(here, bo.headers, blocked.length === 1 ? "Bloqueamos 1 asiento: ya no está a la venta." : `Bloqueamos ${blocked.length} asientos: ya no están a la venta.`);
      }
      const released = await releaseSeats(bo.ctx, input);
      const message = released.length === 0 ? "Esos asientos ya estaban a la venta." : released.length === 1 ? "Liberamos 1 asiento: vuelve a estar a la venta." : `Liberamos ${released.length} asientos: vuelven a estar a la venta.`;
      return savedRedirect(here, bo.headers, message);
    } catch (error) {
      return failedReply(error, { ...values, seats: seats.join(",") }, { headers: bo.headers, target: "seats", fields: (key) => ["seats", "reason", "reasonDetail"].includes(key) });
    }
  }

  const input = formToObject(values) as { seatMapId?: string; categories?: { category?: string; ticketTypeId?: string }[] };
  try {
    await setEventSeating(bo.ctx, { eventId: event.id, seatMapId: input.seatMapId ?? "", categories: (input.categories ?? []).map((c) => ({ category: c.category ?? "", ticketTypeId: c.ticketTypeId ?? "" })) });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, target: "assign", fields: (key) => key === "seatMapId" || /^categories\.\d+\./.test(key) });
  }
  // Back to the page as the event now is (the map shown is the one just saved).
  url.searchParams.delete(MAP_PARAM);
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers, "Guardamos los asientos del evento: cada tipo de entrada con asientos tiene de stock sus asientos.");
}

/** With JavaScript, the live figures and map refresh by themselves, like the virtual queue's. */
function useLiveRefresh(on: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => state === "idle" && document.visibilityState === "visible" && revalidate(), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [on, revalidate, state]);
}

/** The page's query without our own parameters: a GET form carries the rest (the organization, filters). */
function useOtherParams(...ours: string[]) {
  const { search } = useLocation();
  return [...new URLSearchParams(search).entries()].filter(([name]) => !ours.includes(name));
}

function HiddenParams({ params }: { params: [string, string][] }) {
  return (
    <>
      {params.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

export default function EventSeatingPage() {
  const loaded = useLoaderData<typeof loader>();
  const { event, live } = loaded;
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  useLiveRefresh(Boolean(live));

  return (
    <BackofficePage
      title={`Asientos de ${event.name}`}
      lead={
        <>
          Elegí el mapa de la sala y qué tipo de entrada vende cada categoría. Después, fecha por fecha, mirá cómo se ocupan los asientos y bloqueá los que no
          se venden (producción, prensa, accesibilidad).{" "}
          <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] underline underline-offset-2">
            Volver al evento
          </Link>
        </>
      }
    >
      <div className="flex flex-col gap-6">
        <AssignCard reply={reply} />
        {live ? <LiveCard reply={reply} /> : null}
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}

function AssignCard({ reply }: { reply?: FormReply }) {
  const { maps, chosenMap, currentMapName, assignDefaults, ticketTypeOptions, seatedTypes } = useLoaderData<typeof loader>();
  // By value: the live refresh brings a new (equal) object every few seconds, and must not reset what is being chosen.
  const key = useRemountKey(reply, JSON.stringify(assignDefaults));
  const otherParams = useOtherParams(MAP_PARAM);
  const submit = useSubmit();
  if (!maps.length) {
    return (
      <Card title="Mapa de la sala">
        <EmptyState>
          Tu organización todavía no tiene mapas de asientos.{" "}
          <a href="/organizacion/mapas" className="text-[var(--accent)] underline underline-offset-2">
            Armá uno
          </a>{" "}
          y volvé a esta página para asignarlo.
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card title="Mapa de la sala">
      <p className="mb-4 text-sm">{currentMapName ? `El evento usa el mapa «${currentMapName}».` : "El evento todavía no tiene asientos numerados: vende entradas generales."}</p>
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-3" onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}>
        <HiddenParams params={otherParams} />
        <SelectField label="Mapa" className="min-w-0 flex-1" options={maps} selectProps={{ id: "mapa", name: MAP_PARAM, defaultValue: chosenMap?.id ?? "" }} help="Al cambiarlo, abajo aparecen sus categorías." />
        <Button type="submit" variant="secondary">
          Ver sus categorías
        </Button>
      </Form>
      {chosenMap ? (
        <BackofficeForm key={`${key}-${chosenMap.id}`} reply={reply?.target === "assign" ? reply : undefined} target="assign" defaults={assignDefaults} idPrefix="asignar" method="post" className="flex flex-col gap-4">
          <FormErrorList reply={reply} target="assign" />
          <input type="hidden" name="seatMapId" value={chosenMap.id} />
          {chosenMap.categories.map((category, i) => (
            <div key={category.name}>
              <input type="hidden" name={`categories[${i}].category`} value={category.name} />
              <SelectInput
                name={`categories[${i}].ticketTypeId`}
                label={`${category.name} (${category.seats.toLocaleString("es-AR")} asientos)`}
                options={ticketTypeOptions}
                placeholder="Sin asignar"
                help={category.seats ? "El tipo de entrada que vende estos asientos." : "Esta categoría no tiene asientos: podés dejarla sin asignar."}
              />
            </div>
          ))}
          <div className="flex justify-end">
            <Button type="submit" name="intent" value="assign">
              Guardar mapa y categorías
            </Button>
          </div>
        </BackofficeForm>
      ) : null}
      {seatedTypes.length ? (
        <div className="mt-6 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="seated-stock">
            <caption className="mb-2 text-left font-bold">Stock de las entradas con asiento</caption>
            <thead>
              <tr className="border-b border-[var(--border)]">
                <th scope="col" className="py-2 pr-3">
                  Tipo de entrada
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Asientos por fecha
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Stock
                </th>
                <th scope="col" className="py-2 text-right">
                  Vendidas
                </th>
              </tr>
            </thead>
            <tbody>
              {seatedTypes.map((t) => (
                <tr key={t.id} className="border-b border-[var(--border)]">
                  <th scope="row" className="py-2 pr-3 font-normal">
                    {t.name}
                  </th>
                  <td className="py-2 pr-3 text-right tabular-nums">{t.seats.toLocaleString("es-AR")}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{t.stock.toLocaleString("es-AR")}</td>
                  <td className="py-2 text-right tabular-nums">{t.sold.toLocaleString("es-AR")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Card>
  );
}

function LiveCard({ reply }: { reply?: FormReply }) {
  const { dates, eventDateId, live } = useLoaderData<typeof loader>();
  const otherParams = useOtherParams(DATE_PARAM);
  const { search, pathname } = useLocation();
  const submit = useSubmit();
  const seatsReply = reply?.target === "seats" ? reply : undefined;
  // The seats chosen: shared by the map (tapping, with JavaScript) and the list (checkboxes); a new answer starts over.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set((seatsReply?.values.seats ?? "").split(",").filter(Boolean)));
  const key = useRemountKey(reply, eventDateId);
  useEffect(() => setChosen(new Set((seatsReply?.values.seats ?? "").split(",").filter(Boolean))), [key, seatsReply]);
  const toggle = useCallback(
    (guid: string) =>
      setChosen((current) => {
        const next = new Set(current);
        if (next.has(guid)) next.delete(guid);
        else next.add(guid);
        return next;
      }),
    [],
  );
  const seats = useMemo(() => live?.seats ?? [], [live]);
  // A seat someone started buying since it was chosen drops out of the choice (its checkbox is now disabled).
  const choice = useMemo(() => new Set(seats.filter((s) => chosen.has(s.guid) && (s.state === "free" || s.state === "blocked")).map((s) => s.guid)), [seats, chosen]);
  if (!live) return null;
  const summary = `Mapa de asientos de la fecha: ${SEAT_STATES.map((s) => `${live.counts[s]} ${STATE_COUNT_LABELS[s].toLowerCase()}`).join(", ")}.`;
  const seatsError = seatsReply?.errors.seats;

  return (
    <Card title="Asientos en vivo">
      <div className="flex flex-col gap-4">
        {dates.length > 1 ? (
          <Form method="get" className="flex flex-wrap items-end gap-3" onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}>
            <HiddenParams params={otherParams} />
            <SelectField label="Fecha" className="min-w-0 flex-1" options={dates} selectProps={{ id: "fecha", name: DATE_PARAM, defaultValue: eventDateId ?? "" }} />
            <Button type="submit" variant="secondary">
              Ver esta fecha
            </Button>
          </Form>
        ) : (
          <p className="text-sm">{dates[0]?.label}</p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-2">
          {/* Not a live region: read out every few seconds it would talk over everything else. */}
          <p className="text-sm text-[var(--muted)]">Actualizado a las {live.updatedLabel} · se actualiza sola</p>
          <a href={`${pathname}${search}`} className="min-h-11 content-center text-sm text-[var(--accent)] underline underline-offset-2">
            Actualizar
          </a>
        </div>
        <SeatStateLegend counts={live.counts} />
        <SeatStateMap plan={live.plan} seats={seats} summary={summary} chosen={choice} onToggle={toggle} />
        {live.plan.categories.length ? (
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Colores de las categorías">
            {live.plan.categories.map((category) => (
              <li key={category.name} className="flex items-center gap-1.5">
                <span aria-hidden="true" className="inline-block size-3.5 rounded-full border border-[var(--text)]" style={{ backgroundColor: category.color ?? "#9ca3af" }} />
                {category.name}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="text-sm text-[var(--muted)]">
          Libre: relleno con el color de su categoría. Reservado: punteado, con borde cortado. Vendido: lleno, con una cruz. Bloqueado: rayado. Los cuadrados son
          lugares para silla de ruedas. Tocá un asiento del mapa o marcalo en la lista para elegirlo.
        </p>
        <BackofficeForm key={key} reply={seatsReply} target="seats" defaults={{ reason: seatsReply?.values.reason ?? "", reasonDetail: seatsReply?.values.reasonDetail ?? "" }} idPrefix="asientos" method="post" className="flex flex-col gap-4">
          <DefaultSubmit value="block" label="Bloquear" />
          <FormErrorList reply={seatsReply} target="seats" />
          <input type="hidden" name="eventDateId" value={eventDateId ?? ""} />
          <ChosenCount count={choice.size} />
          {seatsError?.length ? (
            <p id="asientos-error" className="text-sm font-bold text-red-700 dark:text-red-400" role="alert">
              {seatsError.join(" ")}
            </p>
          ) : null}
          <SeatChecklist seats={seats} chosen={choice} onToggle={toggle} errorId={seatsError?.length ? "asientos-error" : undefined} />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectInput name="reason" label="Motivo del bloqueo" options={REASONS} placeholder="Sin motivo" />
            <TextInput name="reasonDetail" label="Detalle (opcional)" maxLength={150} help="Por ejemplo: «cámara 2» o «acompañante de la fila A»." />
          </div>
          <div className="flex flex-wrap justify-end gap-3">
            <Button type="submit" name="intent" value="release" variant="secondary">
              Liberar los elegidos
            </Button>
            <Button type="submit" name="intent" value="block">
              Bloquear los elegidos
            </Button>
          </div>
        </BackofficeForm>
      </div>
    </Card>
  );
}

function ChosenCount({ count }: { count: number }): ReactNode {
  return (
    <p className="text-sm font-bold" aria-live="polite">
      {count === 0 ? "Elegí asientos libres para bloquearlos, o bloqueados para liberarlos." : count === 1 ? "Elegiste 1 asiento." : `Elegiste ${count} asientos.`}
    </p>
  );
}
