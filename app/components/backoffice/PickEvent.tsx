import { Link } from "@remix-run/react";
import { formatDate } from "#common/dates";
import { EmptyState } from "./Page";
import { useBackofficeHref, useShell } from "./Shell";
import { BO } from "./nav";

/** For pages about one event when none is picked in the filters: the organization's events as links. */
export function PickEvent({ path, intro }: { path: string; intro: string }) {
  const shell = useShell();
  const href = useBackofficeHref();
  const events = shell?.events ?? [];
  if (!events.length) {
    return (
      <EmptyState>
        <p>Tu organización todavía no tiene eventos.</p>
        {shell?.can["events:manage"] ? (
          <Link to={href(BO.createEvent)} className="mt-2 inline-block text-[var(--accent)] hover:underline">
            Crear un evento
          </Link>
        ) : null}
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby="pick-event" className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4 sm:p-6">
      <h2 id="pick-event" className="font-bold">
        {intro}
      </h2>
      <p className="mt-1 text-sm text-[var(--muted)]">También podés elegirlo en el filtro “Evento” de arriba.</p>
      <ul className="mt-4 flex flex-col gap-2">
        {events.map((event) => (
          <li key={event.id}>
            <Link to={href(path, { eventId: event.id, eventDateId: "" })} className="text-[var(--accent)] hover:underline">
              {event.name}
            </Link>
            {event.firstDate ? <span className="text-sm text-[var(--muted)]"> · {formatDate(event.firstDate)}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
