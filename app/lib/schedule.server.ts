import { redirect } from "@remix-run/node";
import { parseCookies, serializeCookie } from "#server/auth/cookies";
import { CHANGE_ACTIONS, dateChangeBadge, scheduleChangeReport, ticketTypeChangeBadge, type ChangeAction } from "#common/schedule";
import type { EventScheduleChanges } from "#server/events/schedule";

import type { ScheduleReportView } from "#app/components/backoffice/ScheduleReport";

const REPORT_COOKIE = "cambios-guardados";
type Row = { id: string; action: ChangeAction; status: string };

function reportView(changes: { dates: Row[]; ticketTypes: Row[] }): ScheduleReportView {
  const badges: Record<string, string> = {};
  for (const row of changes.dates) {
    const badge = dateChangeBadge(row.status);
    if (badge) badges[row.id] = badge;
  }
  for (const row of changes.ticketTypes) {
    const badge = ticketTypeChangeBadge(row.action);
    if (badge) badges[row.id] = badge;
  }
  return { message: scheduleChangeReport(changes), badges };
}

/**
 * What the event's edit pages answer after a save through `saveEventSchedule`
 * (server/events/schedule.ts): back to the page (Post/Redirect/Get, so a
 * reload never saves twice) with the domain's change actions and statuses in
 * a one-minute cookie that the page's loader reads once and words with
 * common/schedule.ts. The pages save one row at a time: the cookie is small.
 */
export function scheduleSavedRedirect(changes: EventScheduleChanges, to: string, headers: Headers) {
  const compact = (rows: readonly Row[]) => rows.map(({ id, action, status }) => ({ id, action, status }));
  const out = new Headers(headers);
  out.append("Set-Cookie", serializeCookie(REPORT_COOKIE, JSON.stringify({ dates: compact(changes.dates), ticketTypes: compact(changes.ticketTypes) }), { maxAge: 60 }));
  return redirect(to, { headers: out });
}

const rowsOf = (value: unknown): Row[] =>
  (Array.isArray(value) ? value : []).filter(
    (row): row is Row => typeof row?.id === "string" && CHANGE_ACTIONS.includes(row.action) && typeof row.status === "string",
  );

/** The report a save left for this page, once: the loader sends `clear` back so a reload shows the page without it. */
export function readScheduleReport(request: Request): { schedule: ScheduleReportView | null; clear: string | null } {
  const raw = parseCookies(request.headers.get("cookie"))[REPORT_COOKIE];
  if (!raw) return { schedule: null, clear: null };
  const clear = serializeCookie(REPORT_COOKIE, "", { maxAge: 0 });
  try {
    const parsed = JSON.parse(raw) as { dates?: unknown; ticketTypes?: unknown };
    return { schedule: reportView({ dates: rowsOf(parsed.dates), ticketTypes: rowsOf(parsed.ticketTypes) }), clear };
  } catch {
    // A tampered cookie is simply dropped.
    return { schedule: null, clear };
  }
}

/**
 * The page sends one row at a time (`dates.0`, `ticketTypes.0`); the domain's
 * error keys (`ticketTypes.0.stock`) go back to that form's own field names
 * (`stock`), and the row's id to the messages above the form.
 */
export function rowErrorKey(group: "dates" | "ticketTypes") {
  const prefix = `${group}.0.`;
  return (key: string) => (key.startsWith(prefix) ? key.slice(prefix.length) : key);
}
