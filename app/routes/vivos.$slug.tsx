import { useEffect, useState } from "react";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDateTime, formatTime } from "#common/dates";
import { liveNight, type LiveNight } from "#server/door/live";
import { getRequestContext } from "#app/lib/session.server";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import type { ShellHandle } from "#app/root";
import { listenLive } from "#app/components/door/live-stream";

export const handle: ShellHandle = { shell: false };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `En vivo${data ? ` · ${data.night.event.name}` : ""} · Tribuna` }, { name: "robots", content: "noindex" }];

/** First paint server-rendered; then the page listens to the `liveNight` subscription like any integrator. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-store");
  try {
    return data({ night: await liveNight(ctx, params.slug ?? "") }, { headers });
  } catch (error) {
    throw pageErrorResponse(error, { headers, signIn: request });
  }
}

const SUBSCRIPTION = `subscription($slug: String!) { liveNight(eventSlug: $slug) {
  eventName eventSlug eventDateStartsAt updatedAt sold entered
  ticketTypes { label sold entered } bar { label sold entered } doors { label entered } promoters { label sold entered }
  perQuarterHour { at entered } latestScans { at door outcome holderName ticketTypeName productKind offline line seatLabel } conflicts { at door holderName ticketTypeName seatLabel }
} }`;

type Count = { label: string; sold: number | null; entered: number };
interface LiveMessage {
  eventName: string;
  eventSlug: string;
  eventDateStartsAt: string | null;
  updatedAt: string;
  sold: number;
  entered: number;
  ticketTypes: Count[];
  bar: Count[];
  doors: Count[];
  promoters: Count[];
  perQuarterHour: LiveNight["perQuarterHour"];
  latestScans: LiveNight["latestScans"];
  conflicts: LiveNight["conflicts"];
}

/** The subscription's shape back into the loader's, so one component renders both. */
function fromMessage(m: LiveMessage, id: string): LiveNight {
  return {
    event: { id, name: m.eventName, slug: m.eventSlug },
    eventDateStartsAt: m.eventDateStartsAt,
    updatedAt: m.updatedAt,
    sold: m.sold,
    entered: m.entered,
    ticketTypes: m.ticketTypes.map((c) => ({ name: c.label, sold: c.sold ?? 0, entered: c.entered })),
    bar: m.bar.map((c) => ({ name: c.label, sold: c.sold ?? 0, entered: c.entered })),
    doors: m.doors.map((c) => ({ door: c.label, entered: c.entered })),
    promoters: m.promoters.map((c) => ({ nick: c.label, sold: c.sold ?? 0, entered: c.entered })),
    perQuarterHour: m.perQuarterHour,
    latestScans: m.latestScans,
    conflicts: m.conflicts,
  };
}

/**
 * Server-sent events from /api/graphql. EventSource reconnects by itself when the network comes back; a
 * refusal (access ended, signed out, too many streams) closes it and shows why (app/components/door/live-stream.ts).
 */
function useLiveNight(initial: LiveNight): { night: LiveNight; connected: boolean; ended: string | null } {
  const [night, setNight] = useState(initial);
  const [connected, setConnected] = useState(false);
  const [ended, setEnded] = useState<string | null>(null);
  useEffect(() => {
    const url = `/api/graphql?query=${encodeURIComponent(SUBSCRIPTION)}&variables=${encodeURIComponent(JSON.stringify({ slug: initial.event.slug }))}`;
    return listenLive<{ liveNight: LiveMessage }>((u) => new EventSource(u), url, {
      onData: (data) => setNight(fromMessage(data.liveNight, initial.event.id)),
      onConnected: setConnected,
      onEnded: setEnded,
    });
  }, [initial.event.id, initial.event.slug]);
  return { night, connected, ended };
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

export default function LiveNightPage() {
  const { night: initial } = useLoaderData<typeof loader>();
  const { night, connected, ended } = useLiveNight(initial);
  const maxSlot = Math.max(1, ...night.perQuarterHour.map((s) => s.entered));
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col gap-5 px-4 py-5">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <p className="text-sm font-bold uppercase tracking-wide text-[var(--muted)]">En vivo</p>
          <h1 className="text-2xl font-bold">{night.event.name}</h1>
          {night.eventDateStartsAt ? <p className="text-sm text-[var(--muted)]">Fecha: {formatDateTime(night.eventDateStartsAt)}</p> : null}
        </div>
        <p className="text-sm text-[var(--muted)]" aria-live="polite">
          {ended ? "Sin actualizaciones" : connected ? "Actualizando en vivo" : "Sin conexión en vivo"} · {formatTime(night.updatedAt)}
        </p>
      </header>
      {ended ? (
        <p role="alert" className="rounded-2xl border-2 border-red-600 p-4 font-bold" data-testid="live-ended">
          {ended}
        </p>
      ) : null}

      <section aria-label="Ingresos" className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
        <p className="text-5xl font-black tabular-nums" data-testid="live-entered">
          {night.entered.toLocaleString("es-AR")}
          <span className="text-2xl font-bold text-[var(--muted)]"> de {night.sold.toLocaleString("es-AR")}</span>
        </p>
        <p className="text-[var(--muted)]">ingresaron ({percent(night.entered, night.sold)} %)</p>
        <div className="mt-3 h-3 overflow-hidden rounded-full bg-[var(--border)]" aria-hidden="true">
          <div className="h-full rounded-full bg-green-600" style={{ width: `${percent(night.entered, night.sold)}%` }} />
        </div>
      </section>

      {night.conflicts.length ? (
        <section aria-labelledby="conflicts-title" className="rounded-2xl border-2 border-amber-500 p-4">
          <h2 id="conflicts-title" className="font-bold">Entradas aceptadas dos veces sin conexión ({night.conflicts.length})</h2>
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {night.conflicts.map((c, i) => (
              <li key={i}>
                {formatTime(c.at)} · {c.door} · {c.holderName ?? "Sin titular"} {c.ticketTypeName ? `(${c.ticketTypeName})` : ""}
                {c.seatLabel ? ` · ${c.seatLabel}` : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2">
        <CountTable title="Por tipo de entrada" rows={night.ticketTypes.map((t) => ({ label: t.name, sold: t.sold, entered: t.entered }))} />
        <CountTable title="Por puerta" rows={night.doors.map((d) => ({ label: d.door, entered: d.entered }))} empty="Todavía no ingresó nadie." />
        <CountTable title="Por RRPP" rows={night.promoters.map((p) => ({ label: p.nick, sold: p.sold, entered: p.entered }))} empty="Sin ventas por link de RRPP." />
        {night.bar.length ? <CountTable title="Barra" rows={night.bar.map((b) => ({ label: b.name, sold: b.sold, entered: b.entered }))} enteredLabel="Entregadas" /> : null}
        <section aria-labelledby="quarters-title" className="rounded-2xl border border-[var(--border)] p-4">
          <h2 id="quarters-title" className="mb-2 font-bold">Ingresos cada 15 minutos</h2>
          {night.perQuarterHour.length ? (
            <ul className="flex flex-col gap-1 text-sm">
              {night.perQuarterHour.map((slot) => (
                <li key={slot.at} className="grid grid-cols-[3.5rem_1fr_3rem] items-center gap-2">
                  <span className="tabular-nums">{formatTime(slot.at)}</span>
                  <span className="h-3 rounded bg-green-600" style={{ width: `${Math.max(4, (slot.entered / maxSlot) * 100)}%` }} aria-hidden="true" />
                  <span className="text-right tabular-nums">{slot.entered}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-[var(--muted)]">Todavía no ingresó nadie.</p>
          )}
        </section>
      </div>

      <section aria-labelledby="latest-title" className="rounded-2xl border border-[var(--border)] p-4">
        <h2 id="latest-title" className="mb-2 font-bold">Últimos escaneos</h2>
        {night.latestScans.length ? (
          <ul className="flex flex-col divide-y divide-[var(--border)] text-sm" data-testid="live-latest">
            {night.latestScans.map((scan, i) => (
              <li key={i} className="flex flex-wrap justify-between gap-2 py-1.5">
                <span>
                  <span className="tabular-nums">{formatTime(scan.at)}</span> · {scan.door}
                  {scan.offline ? " · sin conexión" : ""}
                </span>
                <span className="text-right">
                  <span className={scan.outcome === "admitted" ? "font-bold text-green-700 dark:text-green-400" : "font-bold text-red-700 dark:text-red-400"}>
                    {scan.line}
                  </span>
                  {scan.seatLabel ? <span className="block text-[var(--muted)]">{scan.seatLabel}</span> : null}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-[var(--muted)]">Sin escaneos todavía.</p>
        )}
      </section>
    </main>
  );
}

function CountTable({ title, rows, empty = "Sin datos.", enteredLabel = "Ingresaron" }: { title: string; rows: { label: string; sold?: number; entered: number }[]; empty?: string; enteredLabel?: string }) {
  const withSold = rows.some((r) => r.sold !== undefined);
  return (
    <section className="rounded-2xl border border-[var(--border)] p-4">
      <h2 className="mb-2 font-bold">{title}</h2>
      {rows.length ? (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-[var(--muted)]">
              <th scope="col" className="font-normal">{title.replace("Por ", "").replace(/^./, (c) => c.toUpperCase())}</th>
              <th scope="col" className="text-right font-normal">{enteredLabel}</th>
              {withSold ? <th scope="col" className="text-right font-normal">Vendidas</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label} className="border-t border-[var(--border)]">
                <th scope="row" className="py-1 text-left font-medium">{row.label}</th>
                <td className="py-1 text-right tabular-nums">{row.entered}</td>
                {withSold ? <td className="py-1 text-right tabular-nums">{row.sold ?? ""}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-[var(--muted)]">{empty}</p>
      )}
    </section>
  );
}
