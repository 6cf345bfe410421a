import type { ReactNode } from "react";
import type { SeatState } from "#common/seating";
import type { SeatPlan } from "#common/seating-plan";
import { fitView } from "#app/components/seating/geometry";
import { PlanBackdrop } from "#app/components/seating/PlanBackdrop";

/*
 * The organizer's live map of one date (docs/seating.md, "Para el organizador"): a plain SVG the server
 * renders, each seat's state told by its mark and not only by its colour: free is filled with its category's
 * colour, held (a purchase not paid yet) dotted with a dashed border, sold solid with a cross, blocked
 * hatched. Chosen seats (to block or release) get a thick ring. With JavaScript, tapping a seat toggles it
 * in the list below the map (the list is the way in without JavaScript or a mouse).
 */

const SEAT_RADIUS = 9;

export interface AdminSeat {
  guid: string;
  x: number;
  y: number;
  section: string;
  row: string;
  number: string;
  category: string;
  accessible?: boolean;
  restrictedView?: boolean;
  state: SeatState;
  reason: string | null;
}

export const STATE_LABELS: Record<SeatState, string> = {
  free: "Libre",
  held: "Reservado (compra sin pagar)",
  sold: "Vendido",
  blocked: "Bloqueado",
};

/** Plural headings for the counts. */
export const STATE_COUNT_LABELS: Record<SeatState, string> = {
  free: "Libres",
  held: "Reservados",
  sold: "Vendidos",
  blocked: "Bloqueados",
};

export const SEAT_STATES: readonly SeatState[] = ["free", "held", "sold", "blocked"];

type PlanDrawing = Pick<SeatPlan, "size" | "shapes" | "sections" | "categories" | "front">;

function Patterns() {
  return (
    <defs>
      <pattern id="admin-seat-hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="4" height="4" fill="var(--bg)" />
        <line x1="0" y1="0" x2="0" y2="4" stroke="var(--text)" strokeWidth="1.6" />
      </pattern>
      <pattern id="admin-seat-dots" width="4" height="4" patternUnits="userSpaceOnUse">
        <rect width="4" height="4" fill="var(--bg)" />
        <circle cx="2" cy="2" r="1" fill="var(--text)" />
      </pattern>
    </defs>
  );
}

/** One seat's drawing at (0, 0): the shape (square for wheelchair places) and its state's mark. */
function SeatMark({ state, colour, accessible, restrictedView, chosen }: { state: SeatState; colour: string; accessible?: boolean; restrictedView?: boolean; chosen?: boolean }) {
  const fill = state === "free" ? colour : state === "held" ? "url(#admin-seat-dots)" : state === "sold" ? "var(--text)" : "url(#admin-seat-hatch)";
  const common = {
    fill,
    stroke: "var(--text)",
    strokeWidth: 1.25,
    strokeDasharray: state === "held" ? "2.5 1.5" : restrictedView ? "3 2" : undefined,
  };
  return (
    <>
      {chosen ? <circle r={SEAT_RADIUS + 3.5} fill="none" stroke="var(--accent)" strokeWidth={3} /> : null}
      {accessible ? <rect x={-SEAT_RADIUS} y={-SEAT_RADIUS} width={SEAT_RADIUS * 2} height={SEAT_RADIUS * 2} rx={2} {...common} /> : <circle r={SEAT_RADIUS} {...common} />}
      {state === "sold" ? <path d="M-4 -4 L4 4 M4 -4 L-4 4" stroke="var(--bg)" strokeWidth={2} strokeLinecap="round" /> : null}
    </>
  );
}

export function seatName(seat: Pick<AdminSeat, "section" | "row" | "number">) {
  return `${seat.section} · Fila ${seat.row} · Asiento ${seat.number}`;
}

export function SeatStateMap({
  plan,
  seats,
  summary,
  chosen,
  onToggle,
}: {
  plan: PlanDrawing;
  seats: readonly AdminSeat[];
  /** What a screen reader hears for the whole picture (the counts). */
  summary: string;
  chosen?: ReadonlySet<string>;
  /** With JavaScript: tapping a seat toggles it (held and sold seats cannot be chosen). */
  onToggle?: (guid: string) => void;
}) {
  const view = fitView(plan.size);
  const colours = new Map(plan.categories.map((c) => [c.name, c.color ?? "#9ca3af"]));
  return (
    <svg
      data-testid="admin-seat-map"
      viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
      className="max-h-[32rem] w-full rounded-xl border border-[var(--border)] bg-[var(--surface)]"
      role="img"
      aria-label={summary}
    >
      <Patterns />
      <PlanBackdrop plan={plan} seats={seats} colours={colours} />
      {seats.map((seat) => {
        const choosable = Boolean(onToggle) && (seat.state === "free" || seat.state === "blocked");
        return (
          <g
            key={seat.guid}
            data-seat={seat.guid}
            data-state={seat.state}
            transform={`translate(${seat.x} ${seat.y})`}
            className={choosable ? "cursor-pointer" : undefined}
            onClick={choosable ? () => onToggle!(seat.guid) : undefined}
          >
            <title>{`${seatName(seat)}: ${STATE_LABELS[seat.state].toLowerCase()}${seat.reason ? ` (${seat.reason})` : ""}`}</title>
            <SeatMark state={seat.state} colour={colours.get(seat.category) ?? "#9ca3af"} accessible={seat.accessible} restrictedView={seat.restrictedView} chosen={chosen?.has(seat.guid)} />
          </g>
        );
      })}
    </svg>
  );
}

/** What each mark means, with how many seats are in each state. */
export function SeatStateLegend({ counts }: { counts: Record<SeatState, number> }) {
  const mark = (children: ReactNode) => (
    // The patterns are the map's (one set of ids per page): the legend is only shown next to it.
    <svg width="24" height="24" viewBox="-12 -12 24 24" aria-hidden="true" className="shrink-0">
      {children}
    </svg>
  );
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="seat-counts">
      {SEAT_STATES.map((state) => (
        <div key={state} className="rounded-xl border border-[var(--border)] p-3">
          <dt className="flex items-center gap-2 text-sm text-[var(--muted)]">
            {mark(<SeatMark state={state} colour="#9ca3af" />)}
            {STATE_COUNT_LABELS[state]}
          </dt>
          <dd className="text-3xl font-black tabular-nums" data-state={state}>
            {counts[state].toLocaleString("es-AR")}
          </dd>
        </div>
      ))}
    </dl>
  );
}
