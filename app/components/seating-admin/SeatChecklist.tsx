import { useMemo } from "react";
import { STATE_LABELS, type AdminSeat } from "./SeatStateMap";

/*
 * Every seat of a date as a checkbox named `seats`, grouped by section and row: the way to choose seats to
 * block or release without JavaScript or a mouse. Held and sold seats are listed (so the organizer sees
 * them) but cannot be chosen: they are an order's, not the organizer's.
 */

interface Row {
  label: string;
  seats: AdminSeat[];
}

interface Section {
  name: string;
  rows: Row[];
  count: number;
}

function groupSeats(seats: readonly AdminSeat[]): Section[] {
  const sections: Section[] = [];
  for (const seat of seats) {
    let section = sections.find((s) => s.name === seat.section);
    if (!section) sections.push((section = { name: seat.section, rows: [], count: 0 }));
    let row = section.rows.find((r) => r.label === seat.row);
    if (!row) section.rows.push((row = { label: seat.row, seats: [] }));
    row.seats.push(seat);
    section.count++;
  }
  return sections;
}

export function SeatChecklist({
  seats,
  chosen,
  onToggle,
  errorId,
}: {
  seats: readonly AdminSeat[];
  /** With JavaScript, the chosen seats are shared with the map; without it each checkbox keeps its own state. */
  chosen: ReadonlySet<string>;
  onToggle: (guid: string) => void;
  errorId?: string;
}) {
  const sections = useMemo(() => groupSeats(seats), [seats]);
  return (
    <div className="flex flex-col gap-3" data-testid="seat-checklist">
      {sections.map((section) => (
        <details key={section.name} open={sections.length === 1 || section.count <= 60} className="rounded-xl border border-[var(--border)] p-3">
          <summary className="min-h-11 cursor-pointer content-center font-bold">
            {section.name} <span className="font-normal text-[var(--muted)]">({section.count.toLocaleString("es-AR")} asientos)</span>
          </summary>
          <div className="mt-2 flex flex-col gap-3">
            {section.rows.map((row) => (
              <fieldset key={row.label} className="flex flex-col gap-1" aria-describedby={errorId}>
                <legend className="text-sm font-bold">{`Fila ${row.label}`}</legend>
                <div className="flex flex-wrap gap-2">
                  {row.seats.map((seat) => {
                    const locked = seat.state === "held" || seat.state === "sold";
                    const id = `asiento-${seat.guid}`;
                    const state = STATE_LABELS[seat.state].toLowerCase();
                    return (
                      <label
                        key={seat.guid}
                        htmlFor={id}
                        data-state={seat.state}
                        className={`flex min-h-11 min-w-11 items-center gap-1.5 rounded-lg border px-2 text-sm ${
                          seat.state === "blocked" ? "border-dashed border-[var(--text)]" : "border-[var(--border)]"
                        } ${locked ? "text-[var(--muted)] line-through" : "cursor-pointer"}`}
                        title={`${state}${seat.reason ? `: ${seat.reason}` : ""}`}
                      >
                        <input
                          id={id}
                          type="checkbox"
                          name="seats"
                          value={seat.guid}
                          disabled={locked}
                          checked={chosen.has(seat.guid)}
                          onChange={() => onToggle(seat.guid)}
                          className="size-4 accent-primary-500"
                        />
                        <span>
                          {seat.number}
                          <span className="sr-only">
                            {`, fila ${row.label}, ${section.name}: ${state}${seat.reason ? ` (${seat.reason})` : ""}`}
                          </span>
                          {seat.state === "blocked" ? <span aria-hidden="true"> · bloq.</span> : null}
                        </span>
                      </label>
                    );
                  })}
                </div>
              </fieldset>
            ))}
          </div>
        </details>
      ))}
    </div>
  );
}
