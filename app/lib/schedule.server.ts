import { data } from "@remix-run/node";
import { dateChangeBadge, scheduleChangeReport, ticketTypeChangeBadge } from "#common/schedule";
import type { EventScheduleChanges } from "#server/events/schedule";
import type { ScheduleReply } from "#app/components/backoffice/types";

/**
 * What the event's edit pages answer after a save through `saveEventSchedule`
 * (server/events/schedule.ts): no redirect, the page itself with the change
 * report (common/schedule.ts words it from the actions and statuses the
 * domain returned) and a mark on each row the save made or changed. It works
 * the same without JavaScript: the answer to the form's POST is the page.
 */
export function scheduleSavedReply(changes: EventScheduleChanges, headers: Headers) {
  const badges: Record<string, string> = {};
  for (const row of changes.dates) {
    const badge = dateChangeBadge(row.status);
    if (badge) badges[row.id] = badge;
  }
  for (const row of changes.ticketTypes) {
    const badge = ticketTypeChangeBadge(row.action);
    if (badge) badges[row.id] = badge;
  }
  const reply: ScheduleReply = {
    values: {},
    errors: {},
    formErrors: [],
    snackbar: null,
    target: null,
    schedule: { message: scheduleChangeReport(changes), badges },
  };
  return data(reply, { headers });
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
