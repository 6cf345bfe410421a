import type { SeatPlan } from "#common/seating-plan";

/**
 * A static picture of a seat plan for the back-office editor, drawn on the server (no JavaScript):
 * each seat a dot in its category's colour, wheelchair places as squares, restricted view with a
 * dashed ring, row labels to the left of each row, section names above them and a band on the
 * stage's side. It scales to its box (a phone shows the whole plan, smaller). The buyer's map
 * (app/components/seating/SeatMap.tsx) is another component: nothing here reaches buyer pages.
 */
export function PlanPreview({ plan, className = "" }: { plan: SeatPlan; className?: string }) {
  const colors = new Map(plan.categories.map((c, i) => [c.name, c.color || FALLBACK[i % FALLBACK.length]!]));
  const seats = plan.sections.reduce((n, s) => n + s.rows.reduce((m, r) => m + r.seats.length, 0), 0);
  const box = bounds(plan);
  const pad = 50;
  const view = box ? { x: box.minX - pad, y: box.minY - pad, w: box.maxX - box.minX + 2 * pad, h: box.maxY - box.minY + 2 * pad } : { x: 0, y: 0, w: plan.size.width, h: plan.size.height };
  const front = plan.front ?? "top";
  const band = 24;
  const stage =
    front === "top"
      ? { x: view.x + pad, y: view.y + 4, w: view.w - 2 * pad, h: band }
      : front === "bottom"
        ? { x: view.x + pad, y: view.y + view.h - band - 4, w: view.w - 2 * pad, h: band }
        : front === "left"
          ? { x: view.x + 4, y: view.y + pad, w: band, h: view.h - 2 * pad }
          : { x: view.x + view.w - band - 4, y: view.y + pad, w: band, h: view.h - 2 * pad };
  const label = `Vista previa de «${plan.name}»: ${seats} ${seats === 1 ? "asiento" : "asientos"} en ${plan.sections.length} ${plan.sections.length === 1 ? "sector" : "sectores"}, escenario ${FRONT_WORDS[front]}.`;
  return (
    <svg viewBox={`${view.x} ${view.y} ${view.w} ${view.h}`} role="img" aria-label={label} className={`h-auto max-h-[70vh] w-full text-[var(--text)] ${className}`} preserveAspectRatio="xMidYMid meet">
      <rect x={stage.x} y={stage.y} width={stage.w} height={stage.h} rx={4} fill="currentColor" opacity={0.15} />
      <text
        x={stage.x + stage.w / 2}
        y={stage.y + stage.h / 2}
        fontSize={14}
        fill="currentColor"
        textAnchor="middle"
        dominantBaseline="central"
        transform={front === "left" || front === "right" ? `rotate(-90 ${stage.x + stage.w / 2} ${stage.y + stage.h / 2})` : undefined}
      >
        ESCENARIO
      </text>
      {plan.shapes.map((shape, i) => (
        <g key={`shape-${i}`}>
          <rect x={shape.x} y={shape.y} width={shape.width} height={shape.height} fill={shape.color || "currentColor"} opacity={0.2} />
          {shape.text ? (
            <text x={shape.x + shape.width / 2} y={shape.y + shape.height / 2} fontSize={12} fill="currentColor" textAnchor="middle" dominantBaseline="central">
              {shape.text}
            </text>
          ) : null}
        </g>
      ))}
      {plan.sections.map((section) => {
        const first = section.rows.flatMap((r) => r.seats);
        return (
          <g key={section.id}>
            {section.standing ? (
              <g>
                <rect x={section.standing.x} y={section.standing.y} width={section.standing.width} height={section.standing.height} fill={colors.get(section.standing.category) ?? "currentColor"} opacity={0.35} />
                <text x={section.standing.x + section.standing.width / 2} y={section.standing.y + section.standing.height / 2} fontSize={14} fill="currentColor" textAnchor="middle" dominantBaseline="central">
                  {section.name} · {section.standing.capacity}
                </text>
              </g>
            ) : null}
            {first.length ? (
              <text x={Math.min(...first.map((s) => s.x))} y={Math.min(...first.map((s) => s.y)) - 18} fontSize={13} fontWeight="bold" fill="currentColor">
                {section.name}
              </text>
            ) : null}
            {section.rows.map((row, ri) => {
              if (!row.seats.length) return null;
              const left = row.seats.reduce((a, b) => (b.x < a.x ? b : a));
              return (
                <g key={`${section.id}-${ri}`}>
                  <text x={left.x - 16} y={left.y} fontSize={11} fill="currentColor" textAnchor="end" dominantBaseline="central">
                    {row.label}
                  </text>
                  {row.seats.map((seat) => {
                    const fill = colors.get(seat.category) ?? "#6b7280";
                    return (
                      <g key={seat.guid}>
                        {seat.accessible ? (
                          <rect x={seat.x - 10} y={seat.y - 10} width={20} height={20} rx={3} fill={fill} />
                        ) : (
                          <circle cx={seat.x} cy={seat.y} r={10} fill={fill} />
                        )}
                        {seat.restrictedView ? <circle cx={seat.x} cy={seat.y} r={13} fill="none" stroke="currentColor" strokeWidth={2} strokeDasharray="3 3" /> : null}
                        <title>{`${section.name} · Fila ${row.label} · Asiento ${seat.number} · ${seat.category}${seat.accessible ? " · silla de ruedas" : ""}${seat.restrictedView ? " · visión reducida" : ""}`}</title>
                      </g>
                    );
                  })}
                </g>
              );
            })}
          </g>
        );
      })}
    </svg>
  );
}

const FRONT_WORDS = { top: "arriba", bottom: "abajo", left: "a la izquierda", right: "a la derecha" } as const;

/** Colours for categories saved without one (pretix files may omit it). */
const FALLBACK = ["#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2"];

function bounds(plan: SeatPlan) {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const section of plan.sections) {
    for (const row of section.rows) {
      for (const seat of row.seats) {
        xs.push(seat.x - 40, seat.x + 14);
        ys.push(seat.y - 34, seat.y + 14);
      }
    }
    if (section.standing) {
      xs.push(section.standing.x, section.standing.x + section.standing.width);
      ys.push(section.standing.y, section.standing.y + section.standing.height);
    }
  }
  for (const shape of plan.shapes) {
    xs.push(shape.x, shape.x + shape.width);
    ys.push(shape.y, shape.y + shape.height);
  }
  if (!xs.length) return null;
  // Reduce, not Math.min(...): a plan may have tens of thousands of seats.
  return { minX: xs.reduce((a, b) => Math.min(a, b)), maxX: xs.reduce((a, b) => Math.max(a, b)), minY: ys.reduce((a, b) => Math.min(a, b)), maxY: ys.reduce((a, b) => Math.max(a, b)) };
}
