/**
 * The change actions (create, update, delete, no_update; decision 126) and event
 * date statuses (created, modified), as server/events/schedule.ts answers
 * them for every row of a save, and how a page tells the organizer what
 * happened: pure, so the back office, the record of changes and any other
 * door word it the same way.
 */

export const CHANGE_ACTIONS = ["create", "update", "delete", "no_update"] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** How many rows of a list got each action. */
export type ChangeCounts = Partial<Record<ChangeAction, number>>;

export interface ScheduleCounts {
  dates?: ChangeCounts;
  ticketTypes?: ChangeCounts;
}

export const NO_SCHEDULE_CHANGES = "No había cambios para guardar";

type Kind = keyof ScheduleCounts;
type Reported = Exclude<ChangeAction, "no_update">;

const WORDS: Record<Kind, { one: string; many: string } & Record<Reported, [string, string]>> = {
  dates: { one: "fecha", many: "fechas", create: ["creada", "creadas"], update: ["modificada", "modificadas"], delete: ["eliminada", "eliminadas"] },
  ticketTypes: { one: "tipo de entrada", many: "tipos de entrada", create: ["creado", "creados"], update: ["modificado", "modificados"], delete: ["eliminado", "eliminados"] },
};

const REPORTED: Reported[] = ["create", "update", "delete"];

export function countChanges(rows: readonly { action: ChangeAction }[]): Record<ChangeAction, number> {
  const counts = { create: 0, update: 0, delete: 0, no_update: 0 };
  for (const row of rows) counts[row.action] += 1;
  return counts;
}

/**
 * One sentence about a save: "Fecha creada", "2 tipos de entrada
 * modificados y tipo de entrada eliminado", or "No había cambios para
 * guardar" when every row was left as it was.
 */
export function scheduleReportFromCounts(counts: ScheduleCounts): string {
  const parts: string[] = [];
  for (const kind of ["dates", "ticketTypes"] as const) {
    const words = WORDS[kind];
    for (const action of REPORTED) {
      const n = counts[kind]?.[action] ?? 0;
      if (n === 1) parts.push(`${words.one} ${words[action][0]}`);
      else if (n > 1) parts.push(`${n} ${words.many} ${words[action][1]}`);
    }
  }
  if (!parts.length) return NO_SCHEDULE_CHANGES;
  const sentence = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} y ${parts[parts.length - 1]}`;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** The sentence for the rows a save answered (each with its change action). */
export function scheduleChangeReport(changes: { dates: readonly { action: ChangeAction }[]; ticketTypes: readonly { action: ChangeAction }[] }): string {
  return scheduleReportFromCounts({ dates: countChanges(changes.dates), ticketTypes: countChanges(changes.ticketTypes) });
}

/** The mark next to a date this save made or changed, from its date status ("created", "modified"); null for the others. */
export function dateChangeBadge(status: string): string | null {
  return status === "created" ? "Nueva" : status === "modified" ? "Modificada" : null;
}

/** The mark next to a ticket type ("una entrada" on the page) this save made or changed, from its change action. */
export function ticketTypeChangeBadge(action: ChangeAction): string | null {
  return action === "create" ? "Nueva" : action === "update" ? "Modificada" : null;
}
