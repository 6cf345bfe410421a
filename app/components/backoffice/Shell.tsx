import { useEffect, useState, type ReactNode } from "react";
import { Link, NavLink, useLocation, useNavigate, useRouteLoaderData } from "@remix-run/react";
import { formatDate } from "#common/dates";
import { filterQuery, filtersReducer, fromDateStart, type FilterAction, type FilterState } from "#common/filters";
import { fieldInputClasses } from "#app/components/ui/Field";
import { BO, FILTER_PAGES, groupOf, visibleGroups } from "./nav";
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
const groupItem =
  "inline-flex min-h-10 items-center whitespace-nowrap border-b-2 border-transparent px-3 text-sm font-bold text-[var(--muted)] hover:border-[var(--border)] hover:text-[var(--text)] aria-[current=true]:border-primary-500 aria-[current=true]:text-[var(--text)]";
const phoneItem =
  "flex min-h-11 items-center rounded-lg px-3 text-sm font-medium text-[var(--muted)] hover:bg-[var(--bg)] hover:text-[var(--text)] aria-[current=page]:bg-primary-500/15 aria-[current=page]:font-bold aria-[current=page]:text-[var(--text)]";

/** The back-office frame: the organization's links and the global filters, above each page's own <main>. */
export function BackofficeShell({ shell, children }: { shell: ShellData; children: ReactNode }) {
  if (!shell.organization) return <>{children}</>;
  return (
    <div className="flex min-w-0 flex-col">
      <div className="border-b border-[var(--border)] bg-[var(--surface)]">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-3 sm:px-6">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="text-sm text-[var(--muted)]">
              <span className="font-bold text-[var(--text)]">{shell.organization.name}</span>
              {shell.roleLabel ? <> · {shell.roleLabel}</> : null}
            </p>
            <Link to={BO.create} className="text-sm text-[var(--accent)] underline-offset-2 hover:underline">
              Crear otra organización
            </Link>
          </div>
          <BackofficeNav shell={shell} />
          {/* A promoter of one organization has nothing to filter (their page is about their own sales). */}
          {shell.events.length || shell.organizations.length > 1 || shell.can["sales:read"] ? <FilterBar key={JSON.stringify(shell.filters)} shell={shell} /> : null}
        </div>
      </div>
      {children}
    </div>
  );
}

/**
 * The sections, grouped (decision 116). From 600 px up: a row of groups (each opens its first
 * section) and the current group's sections below, both wrapping, so nothing is ever cut off.
 * On a phone: one "Secciones" disclosure (a <details>, so it opens without JavaScript) with
 * every group and section. Only one of the two is displayed at a time.
 */
export function BackofficeNav({ shell }: { shell: ShellData }) {
  const href = useBackofficeHref();
  const { pathname, key } = useLocation();
  const groups = visibleGroups(shell.can);
  const current = groupOf(groups, pathname);
  const currentLink = current?.links.find((link) => link.to === pathname);
  return (
    <>
      <nav aria-label="Organización" className="hidden flex-col gap-2 sm:flex" data-backoffice-nav="wide">
        {groups.length > 1 ? (
          <ul className="-mx-1 flex flex-wrap gap-x-1 border-b border-[var(--border)]">
            {groups.map((group) => (
              <li key={group.label}>
                <Link to={href(group.links[0].to)} className={groupItem} aria-current={group === current ? "true" : undefined}>
                  {group.label}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        {current ? (
          <ul className="-mx-1 flex flex-wrap gap-1" aria-label={groups.length > 1 ? `Secciones de ${current.label}` : undefined}>
            {current.links.map((link) => (
              <li key={link.to}>
                <NavLink to={href(link.to)} className={navItem} end>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        ) : null}
      </nav>
      <details key={key} className="group rounded-lg border border-[var(--border)] bg-[var(--bg)] sm:hidden" data-backoffice-nav="phone">
        <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-3 text-sm [&::-webkit-details-marker]:hidden">
          <span>
            <span className="font-bold">Secciones</span>
            {current ? (
              <span className="text-[var(--muted)]">
                {" "}
                · {current.label}
                {currentLink && currentLink.label !== current.label ? ` › ${currentLink.label}` : ""}
              </span>
            ) : null}
          </span>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0 transition-transform group-open:rotate-180" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M6 9l6 6 6-6" />
          </svg>
        </summary>
        <nav aria-label="Organización" className="border-t border-[var(--border)] px-2 pb-2">
          {groups.map((group) => (
            <div key={group.label} className="pt-2">
              {groups.length > 1 ? (
                <p id={`bo-group-${group.label}`} className="px-3 pb-1 text-xs font-bold uppercase tracking-wide text-[var(--muted)]">
                  {group.label}
                </p>
              ) : null}
              <ul aria-labelledby={groups.length > 1 ? `bo-group-${group.label}` : undefined}>
                {group.links.map((link) => (
                  <li key={link.to}>
                    <NavLink to={href(link.to)} className={phoneItem} end>
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </details>
    </>
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

  const organizationName = shell.organizations.find((o) => o.id === state.organizationId)?.name ?? shell.organization?.name ?? "";
  const eventName = shell.events.find((e) => e.id === state.eventId)?.name;
  const dateLabel = shell.dates.find((d) => d.id === state.eventDateId)?.label;
  const active = Boolean(state.eventId || state.eventDateId || !fromStart || (state.organizationId && state.organizationId !== defaultOrganization));
  const chosen = [shell.organizations.length > 1 ? organizationName : null, eventName ?? "Todos los eventos", dateLabel, fromStart ? null : "también los pasados"].filter(Boolean).join(" · ");

  // On a phone the block starts closed unless a filter is on; from 600 px up it is always open (its summary hidden).
  return (
    <details open={active} className="group/filters sm:[&::details-content]:[content-visibility:visible]" data-filters>
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 rounded-lg border border-[var(--border)] bg-[var(--bg)] px-3 text-sm sm:hidden [&::-webkit-details-marker]:hidden">
        <span className="min-w-0">
          <span className="font-bold">Filtros</span>
          <span className="text-[var(--muted)]"> · {chosen}</span>
        </span>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0 transition-transform group-open/filters:rotate-180" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M6 9l6 6 6-6" />
        </svg>
      </summary>
      <form method="get" action={action} className="flex flex-wrap items-end gap-3 pt-3 sm:pt-0" aria-label="Filtros">
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
          <Link to={toggled} className="text-[var(--accent)] underline-offset-2 hover:underline" data-filter="last-week">
            {fromStart ? "Ver también los pasados" : "Solo desde la última semana"}
          </Link>
          <Link to={cleared} className="text-[var(--accent)] underline-offset-2 hover:underline">
            Limpiar filtros
          </Link>
        </div>
      </form>
    </details>
  );
}
