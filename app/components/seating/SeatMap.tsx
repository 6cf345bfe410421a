import { useCallback, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type WheelEvent } from "react";
import { seatLabel, type MapSeat } from "#common/seating";
import type { SeatPlan } from "#common/seating-plan";
import { PlanBackdrop } from "./PlanBackdrop";
import { fitView, nearestSeatInDirection, panBy, viewShowing, zoomAt, type Direction, type View } from "./geometry";

export interface SeatMapProps {
  plan: Pick<SeatPlan, "size" | "shapes" | "categories" | "sections" | "front">;
  seats: readonly MapSeat[];
  /** The final price a buyer pays for a seat of each category, already formatted ("$ 15.000"). */
  priceLabels: Record<string, string>;
  selected: readonly string[];
  onToggle: (guid: string) => void;
  maxSelected: number;
}

const SEAT_RADIUS = 9;
const ARROWS: Record<string, Direction> = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
/** Past this many plan units a press is a drag (a pan), not a tap on a seat. */
const TAP_SLOP = 6;

export function seatDescription(seat: MapSeat, priceLabels: Record<string, string>, chosen: boolean): string {
  const place = `${seat.section}, fila ${seat.row}, asiento ${seat.number}`;
  const traits = [seat.accessible ? "para silla de ruedas" : null, seat.restrictedView ? "visión reducida" : null].filter(Boolean).join(", ");
  const status = chosen ? "elegido" : seat.state === "free" ? priceLabels[seat.category] ?? "libre" : seat.state === "blocked" ? "no disponible" : "ocupado";
  return [place, traits, status].filter(Boolean).join(" · ");
}

/**
 * The buyer's seat map: an SVG drawn from the venue's plan. Free seats are filled with their
 * category's colour; the chosen ones carry a check, taken ones a cross and blocked ones a hatch,
 * so no state depends on colour alone; wheelchair seats are square and restricted-view ones dashed.
 * Touch: drag to pan, pinch or the buttons to zoom, tap to choose. Keyboard: the map is one tab
 * stop; arrows move between seats, Enter or Space chooses, + and − zoom, 0 shows it all.
 */
export function SeatMap({ plan, seats, priceLabels, selected, onToggle, maxSelected }: SeatMapProps) {
  const [view, setView] = useState<View>(() => fitView(plan.size));
  const [activeGuid, setActiveGuid] = useState<string | null>(null);
  const [said, setSaid] = useState("");
  const svgRef = useRef<SVGSVGElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  // The seat under the finger when it went down: once the map captures the pointer, later events target the map itself.
  const gesture = useRef<{ moved: number; pinch: number | null; seat?: string | null }>({ moved: 0, pinch: null });
  const chosen = useMemo(() => new Set(selected), [selected]);
  const colours = useMemo(() => new Map(plan.categories.map((c) => [c.name, c.color ?? "#9ca3af"])), [plan.categories]);
  const byGuid = useMemo(() => new Map(seats.map((s) => [s.guid, s])), [seats]);
  const active = activeGuid ? byGuid.get(activeGuid) ?? null : null;

  const toPlan = useCallback(
    (clientX: number, clientY: number) => {
      const box = svgRef.current?.getBoundingClientRect();
      if (!box || box.width === 0) return { x: view.x + view.width / 2, y: view.y + view.height / 2 };
      const scale = Math.max(view.width / box.width, view.height / box.height);
      return { x: view.x + (clientX - box.left) * scale, y: view.y + (clientY - box.top) * scale };
    },
    [view],
  );

  const choose = useCallback(
    (seat: MapSeat) => {
      setActiveGuid(seat.guid);
      if (seat.state !== "free") {
        setSaid(`${seatDescription(seat, priceLabels, false)}.`);
        return;
      }
      if (!chosen.has(seat.guid) && chosen.size >= maxSelected) {
        setSaid(`Ya elegiste ${maxSelected} ${maxSelected === 1 ? "asiento" : "asientos"}: quitá uno para cambiarlo.`);
        return;
      }
      setSaid(`${chosen.has(seat.guid) ? "Quitaste" : "Elegiste"} ${seat.section}, fila ${seat.row}, asiento ${seat.number} · ${priceLabels[seat.category] ?? ""}`.trim());
      onToggle(seat.guid);
    },
    [chosen, maxSelected, onToggle, priceLabels],
  );

  const zoom = (factor: number) => setView((v) => zoomAt(v, factor, { x: v.x + v.width / 2, y: v.y + v.height / 2 }, plan.size));

  function onKeyDown(event: KeyboardEvent<SVGSVGElement>) {
    const direction = ARROWS[event.key];
    if (direction) {
      event.preventDefault();
      const from = active ?? seats[0];
      if (!from) return;
      const next = active ? nearestSeatInDirection(seats, from, direction) : from;
      if (next) {
        setActiveGuid(next.guid);
        setView((v) => viewShowing(v, next, plan.size));
        setSaid(seatDescription(next, priceLabels, chosen.has(next.guid)));
      }
    } else if ((event.key === "Enter" || event.key === " ") && active) {
      event.preventDefault();
      choose(active);
    } else if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      zoom(1.5);
    } else if (event.key === "-") {
      event.preventDefault();
      zoom(1 / 1.5);
    } else if (event.key === "0") {
      event.preventDefault();
      setView(fitView(plan.size));
    }
  }

  function onPointerDown(event: PointerEvent<SVGSVGElement>) {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const seat = (event.target as Element).closest?.("[data-seat]")?.getAttribute("data-seat");
    gesture.current = { moved: pointers.current.size > 1 ? TAP_SLOP + 1 : 0, pinch: null, seat };
  }

  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    const last = pointers.current.get(event.pointerId);
    if (!last) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.current.set(event.pointerId, now);
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const previous = gesture.current.pinch;
      gesture.current = { moved: TAP_SLOP + 1, pinch: distance, seat: null };
      if (previous) setView((v) => zoomAt(v, distance / previous, toPlan((a.x + b.x) / 2, (a.y + b.y) / 2), plan.size));
      return;
    }
    const from = toPlan(last.x, last.y);
    const to = toPlan(now.x, now.y);
    gesture.current.moved += Math.hypot(to.x - from.x, to.y - from.y);
    if (gesture.current.moved > TAP_SLOP) setView((v) => panBy(v, from.x - to.x, from.y - to.y, plan.size));
  }

  function onPointerUp(event: PointerEvent<SVGSVGElement>) {
    pointers.current.delete(event.pointerId);
    if (gesture.current.moved > TAP_SLOP || pointers.current.size > 0) return;
    const guid = gesture.current.seat;
    const seat = guid ? byGuid.get(guid) : undefined;
    if (seat) choose(seat);
  }

  function onWheel(event: WheelEvent<SVGSVGElement>) {
    if (!event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    const anchor = toPlan(event.clientX, event.clientY);
    setView((v) => zoomAt(v, event.deltaY < 0 ? 1.25 : 0.8, anchor, plan.size));
  }

  const selectedSeats = selected.map((guid) => byGuid.get(guid)).filter((s): s is MapSeat => Boolean(s));

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Zoom del mapa">
        <button type="button" className="min-h-11 min-w-11 rounded-lg border border-[var(--border)] px-3 font-bold" onClick={() => zoom(1.5)} aria-label="Acercar">
          +
        </button>
        <button type="button" className="min-h-11 min-w-11 rounded-lg border border-[var(--border)] px-3 font-bold" onClick={() => zoom(1 / 1.5)} aria-label="Alejar">
          −
        </button>
        <button type="button" className="min-h-11 rounded-lg border border-[var(--border)] px-3 text-sm font-bold" onClick={() => setView(fitView(plan.size))}>
          Ver todo
        </button>
      </div>
      <svg
        ref={svgRef}
        data-testid="seat-map"
        viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
        className="h-[60vh] max-h-[32rem] w-full touch-none select-none rounded-xl border border-[var(--border)] bg-[var(--surface)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-400"
        tabIndex={0}
        role="group"
        aria-label="Mapa de asientos. Con las flechas te movés entre asientos, con Enter elegís, con más y menos acercás o alejás."
        aria-activedescendant={active ? `asiento-${active.guid}` : undefined}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={(event) => pointers.current.delete(event.pointerId)}
        onWheel={onWheel}
      >
        <defs>
          <pattern id="seat-blocked-hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" y2="4" stroke="var(--muted)" strokeWidth="1.5" />
          </pattern>
        </defs>
        <PlanBackdrop plan={plan} seats={seats} colours={colours} />
        {seats.map((seat) => {
          const isChosen = chosen.has(seat.guid);
          const isActive = seat.guid === activeGuid;
          const fill = isChosen ? "var(--accent)" : seat.state === "free" ? colours.get(seat.category) ?? "#9ca3af" : seat.state === "blocked" ? "url(#seat-blocked-hatch)" : "transparent";
          const stroke = seat.state === "free" || isChosen ? "var(--text)" : "var(--muted)";
          const common = { fill, stroke, strokeWidth: isActive ? 3 : 1.25, strokeDasharray: seat.restrictedView ? "3 2" : undefined };
          return (
            <g
              key={seat.guid}
              id={`asiento-${seat.guid}`}
              data-seat={seat.guid}
              data-state={isChosen ? "chosen" : seat.state}
              role="checkbox"
              aria-checked={isChosen}
              aria-disabled={seat.state !== "free" || undefined}
              aria-label={seatDescription(seat, priceLabels, isChosen)}
              transform={`translate(${seat.x} ${seat.y})`}
              className={seat.state === "free" ? "cursor-pointer" : undefined}
            >
              {seat.accessible ? <rect x={-SEAT_RADIUS} y={-SEAT_RADIUS} width={SEAT_RADIUS * 2} height={SEAT_RADIUS * 2} rx={2} {...common} /> : <circle r={SEAT_RADIUS} {...common} />}
              {isChosen ? <path d="M-4.5 0.5 L-1.5 3.5 L4.5 -3.5" fill="none" stroke="var(--bg)" strokeWidth={2.5} strokeLinecap="round" /> : null}
              {!isChosen && (seat.state === "held" || seat.state === "sold") ? <path d="M-4 -4 L4 4 M4 -4 L-4 4" stroke="var(--muted)" strokeWidth={1.75} strokeLinecap="round" /> : null}
            </g>
          );
        })}
      </svg>
      <p className="min-h-6 text-sm" role="status" aria-live="polite" data-testid="seat-map-said">
        {said}
      </p>
      <SeatLegend categories={plan.categories} priceLabels={priceLabels} />
      <div>
        <h3 className="text-sm font-bold">
          {selectedSeats.length === 0 ? "Todavía no elegiste asientos" : `Elegiste ${selectedSeats.length} de ${maxSelected}`}
        </h3>
        <ul className="mt-2 flex flex-col gap-2" data-testid="chosen-seats">
          {selectedSeats.map((seat) => (
            <li key={seat.guid} className="flex items-center justify-between gap-3 rounded-lg border border-[var(--border)] px-3 py-2 text-sm">
              <span>
                {seatLabel(seat)} <span className="font-bold">{priceLabels[seat.category]}</span>
              </span>
              <input type="hidden" name="seats" value={seat.guid} />
              <button type="button" className="min-h-11 px-2 font-bold text-[var(--accent)] underline underline-offset-2" onClick={() => onToggle(seat.guid)}>
                Quitar
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** What each colour and mark means, with the price of each category. */
export function SeatLegend({ categories, priceLabels }: { categories: SeatPlan["categories"]; priceLabels: Record<string, string> }) {
  const mark = (children: ReactNode) => (
    <svg width="22" height="22" viewBox="-11 -11 22 22" aria-hidden="true" className="shrink-0">
      {children}
    </svg>
  );
  return (
    <ul className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2" aria-label="Referencias del mapa">
      {categories.map((category) => (
        <li key={category.name} className="flex items-center gap-2">
          {mark(<circle r={SEAT_RADIUS} fill={category.color ?? "#9ca3af"} stroke="var(--text)" strokeWidth={1.25} />)}
          <span>
            {category.name} {priceLabels[category.name] ? <span className="font-bold">{priceLabels[category.name]}</span> : null}
          </span>
        </li>
      ))}
      <li className="flex items-center gap-2">
        {mark(
          <>
            <circle r={SEAT_RADIUS} fill="var(--accent)" stroke="var(--text)" strokeWidth={1.25} />
            <path d="M-4.5 0.5 L-1.5 3.5 L4.5 -3.5" fill="none" stroke="var(--bg)" strokeWidth={2.5} strokeLinecap="round" />
          </>,
        )}
        Elegido por vos
      </li>
      <li className="flex items-center gap-2">
        {mark(
          <>
            <circle r={SEAT_RADIUS} fill="transparent" stroke="var(--muted)" strokeWidth={1.25} />
            <path d="M-4 -4 L4 4 M4 -4 L-4 4" stroke="var(--muted)" strokeWidth={1.75} strokeLinecap="round" />
          </>,
        )}
        Ocupado
      </li>
      <li className="flex items-center gap-2">
        {mark(<circle r={SEAT_RADIUS} fill="url(#seat-blocked-hatch)" stroke="var(--muted)" strokeWidth={1.25} />)}
        No disponible
      </li>
      <li className="flex items-center gap-2">
        {mark(<rect x={-SEAT_RADIUS} y={-SEAT_RADIUS} width={SEAT_RADIUS * 2} height={SEAT_RADIUS * 2} rx={2} fill="transparent" stroke="var(--text)" strokeWidth={1.25} />)}
        Para silla de ruedas (cuadrado)
      </li>
      <li className="flex items-center gap-2">
        {mark(<circle r={SEAT_RADIUS} fill="transparent" stroke="var(--text)" strokeWidth={1.25} strokeDasharray="3 2" />)}
        Visión reducida (borde punteado)
      </li>
    </ul>
  );
}
