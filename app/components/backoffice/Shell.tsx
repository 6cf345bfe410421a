import { useEffect, useState, type ReactNode } from "react";
import { Link, NavLink, useLocation, useNavigate, useRouteLoaderData } from "@remix-run/react";
import { formatDate } from "#common/dates";
import { filterQuery, filtersReducer, fromDateStart, type FilterAction, type FilterState } from "#common/filters";
import { fieldInputClasses } from "#app/components/ui/Field";
import { BO, FILTER_PAGES, visibleLinks } from "./nav";
import type { ShellData } from "./types";

export const SHELL_ROUTE_ID = "routes/organizacion";

/** The shell's data, for any page under /organizacion. */
export function useShell(): ShellData | undefined {
  return useRouteLoaderData(SHELL_ROUTE_ID) as ShellData | undefined;
}

/** `path?filters` keeping the global filters (plus `extra` overrides). */
export function useBackofficeHref() {
  const shell = useShell();
  return (path: string, extra: Partial<FilterState> = {}, params: Record<string, string> = {}) => {
    if (!shell) return path;
    const state = { ...shell.linkFilters, ...extra, opts: { ...shell.linkFilters.opts, ...(extra.opts ?? {}) } };
    return `${path}${filterQuery(state, new Date(shell.now), params)}`;
  };
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const navItem =
  "inline-flex min-h-9 items-center whitespace-nowrap rounded-lg px-3 text-sm font-medium text-[var(--muted)] hover:bg-[var(--bg)] hover:text-[var(--text)] aria-[current=page]:bg-primary-500/15 aria-[current=page]:text-[var(--text)]";

/** The back-office frame: the organization's links and the global filters, above each page's own <main>. */
export function BackofficeShell({ shell, children }: { shell: ShellData; children: ReactNode }) {
  const href = useBackofficeHref();
  if (!shell.organization) return <>{children}</>;
  return (
    <div className="flex flex-col">
      <div className="border-b border-[var(--border)] bg-[var(--surface)]">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-3 sm:px-6">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="text-sm text-[var(--muted)]">
              <span className="font-bold text-[var(--text)]">{shell.organization.name}</span>
              {shell.roleLabel ? <> · {shell.roleLabel}</> : null}
            </p>
            <Link to={BO.create} className="text-sm text-primary-500 hover:underline">
              Crear otra organización
            </Link>
          </div>
          <nav aria-label="Organización" className="-mx-1 flex gap-1 overflow-x-auto pb-1">
            {visibleLinks(shell.can).map((link) => (
              <NavLink key={link.to} to={href(link.to)} className={navItem} end>
                {link.label}
              </NavLink>
            ))}
          </nav>
          {/* A promoter of one organization has nothing to filter (their page is about their own sales). */}
          {shell.events.length || shell.organizations.length > 1 || shell.can["sales:read"] ? <FilterBar key={JSON.stringify(shell.filters)} shell={shell} /> : null}
        </div>
      </div>
      {children}
    </div>
  );
}

/**
 * The organization / event / date selectors. A GET form: without JavaScript
 * "Aplicar" submits it; with JavaScript each change goes through the filter
 * reducer and straight to the new URL.
 */
export function FilterBar({ shell }: { shell: ShellData }) {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const now = new Date(shell.now);
  const action = FILTER_PAGES.has(location.pathname) ? location.pathname : BO.summary;
  const defaultOrganization = shell.organizations[0]?.id ?? "";
  const state = shell.filters;

  function urlFor(next: FilterState) {
    const forLink = { ...next, organizationId: next.organizationId === defaultOrganization ? "" : next.organizationId };
    return `${action}${filterQuery(forLink, now)}`;
  }
  function dispatch(...actions: FilterAction[]) {
    navigate(urlFor(actions.reduce(filtersReducer, state)));
  }

  const fromStart = fromDateStart(state.opts.fromDate);
  const toggled = urlFor(filtersReducer(state, { type: "toggleLastWeek", now }));
  const cleared = urlFor(filtersReducer(state, { type: "clear", now }));
  const selectClass = `${fieldInputClasses} py-2 text-sm`;

  return (
    <form method="get" action={action} className="flex flex-wrap items-end gap-3" aria-label="Filtros">
      {state.userId ? <input type="hidden" name="userId" value={state.userId} /> : null}
      <input type="hidden" name="fromDate" value={state.opts.fromDate} />
      <label className="flex w-full flex-col gap-1 text-xs font-medium text-[var(--muted)] sm:w-auto sm:min-w-44">
        Organización
        <select
          name="organizationId"
          defaultValue={state.organizationId}
          className={selectClass}
          onChange={(e) => dispatch({ type: "setValues", values: { organizationId: e.currentTarget.value, eventId: "", eventDateId: "" } })}
        >
          {shell.organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
          {shell.organization && !shell.organizations.some((o) => o.id === shell.organization!.id) ? (
            <option value={shell.organization.id}>{shell.organization.name}</option>
          ) : null}
        </select>
      </label>
      <label className="flex w-full flex-col gap-1 text-xs font-medium text-[var(--muted)] sm:w-auto sm:min-w-52">
        Evento
        <select
          name="eventId"
          defaultValue={state.eventId}
          className={selectClass}
          onChange={(e) => dispatch({ type: "setEvent", eventId: e.currentTarget.value }, { type: "setEventDate", eventDateId: "" })}
        >
          <option value="">Todos los eventos</option>
          {shell.events.map((event) => (
            <option key={event.id} value={event.id}>
              {event.name}
              {event.firstDate ? ` · ${formatDate(event.firstDate)}` : ""}
            </option>
          ))}
        </select>
      </label>
      <label className="flex w-full flex-col gap-1 text-xs font-medium text-[var(--muted)] sm:w-auto sm:min-w-44">
        Fecha
        <select
          name="eventDateId"
          defaultValue={state.eventDateId}
          className={selectClass}
          disabled={!state.eventId}
          onChange={(e) => dispatch({ type: "setEventDate", eventDateId: e.currentTarget.value })}
        >
          <option value="">{state.eventId ? "Todas las fechas" : "Elegí un evento"}</option>
          {shell.dates.map((date) => (
            <option key={date.id} value={date.id}>
              {date.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        className={`min-h-10 rounded-lg border border-[var(--border)] px-4 text-sm font-bold hover:border-primary-500 ${hydrated ? "sr-only" : ""}`}
      >
        Aplicar
      </button>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 pb-2 text-sm">
        <span className="text-[var(--muted)]">
          {fromStart ? `Eventos desde el ${formatDate(fromStart)} (última semana en adelante)` : "Todos los eventos, también los pasados"}
        </span>
        <Link to={toggled} className="text-primary-500 hover:underline" data-filter="last-week">
          {fromStart ? "Ver también los pasados" : "Solo desde la última semana"}
        </Link>
        <Link to={cleared} className="text-primary-500 hover:underline">
          Limpiar filtros
        </Link>
      </div>
    </form>
  );
}
