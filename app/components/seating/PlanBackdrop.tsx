import type { SeatPlan } from "#common/seating-plan";

/**
 * What a seat map draws under the seats: the plan's shapes (stage, bars) and its standing areas, in the
 * colour of their category. A plan with no shapes (one made in the back office's editor) gets a band that says
 * where the stage is, on its `front` side: nobody picks a seat without knowing where they will look.
 * Shared by the buyer's map and the organizer's live map; decoration only.
 */
export function PlanBackdrop({ plan, seats, colours }: { plan: Pick<SeatPlan, "shapes" | "sections" | "front">; seats: readonly Point[]; colours: Map<string, string> }) {
  const stage = plan.shapes.length ? null : stageBand(plan, seats);
  return (
    <>
      {stage ? (
        <g aria-hidden="true">
          <rect x={stage.x} y={stage.y} width={stage.width} height={stage.height} rx={6} fill="var(--border)" opacity={0.6} />
          <text
            x={stage.x + stage.width / 2}
            y={stage.y + stage.height / 2}
            textAnchor="middle"
            dominantBaseline="middle"
            fontSize={14}
            fill="var(--text)"
            transform={stage.vertical ? `rotate(-90 ${stage.x + stage.width / 2} ${stage.y + stage.height / 2})` : undefined}
          >
            Escenario
          </text>
        </g>
      ) : null}
      {plan.shapes.map((shape, index) => (
        <g key={`shape-${index}`} transform={shape.rotation ? `rotate(${shape.rotation} ${shape.x + shape.width / 2} ${shape.y + shape.height / 2})` : undefined} aria-hidden="true">
          <rect x={shape.x} y={shape.y} width={shape.width} height={shape.height} rx={6} fill={shape.color ?? "var(--border)"} opacity={0.6} />
          {shape.text ? (
            <text x={shape.x + shape.width / 2} y={shape.y + shape.height / 2} textAnchor="middle" dominantBaseline="middle" fontSize={14} fill="var(--text)">
              {shape.text}
            </text>
          ) : null}
        </g>
      ))}
      {plan.sections.map((section) =>
        section.kind === "standing" && section.standing ? (
          <g key={section.id} aria-hidden="true">
            <rect x={section.standing.x} y={section.standing.y} width={section.standing.width} height={section.standing.height} rx={8} fill={colours.get(section.standing.category) ?? "var(--border)"} opacity={0.35} stroke="var(--text)" strokeDasharray="6 4" />
            <text x={section.standing.x + section.standing.width / 2} y={section.standing.y + section.standing.height / 2} textAnchor="middle" dominantBaseline="middle" fontSize={14} fill="var(--text)">
              {section.name} (de pie)
            </text>
          </g>
        ) : null,
      )}
    </>
  );
}

const BAND = 24;
const GAP = 16;

type Point = { x: number; y: number };

/**
 * The stage's band beside what the plan draws (its seats, given apart: the buyer's page gets the plan without its
 * numbered rows, and its standing areas), on its `front` side (top unless it says otherwise); null for an empty plan.
 */
export function stageBand(plan: Pick<SeatPlan, "sections" | "front">, seats: readonly Point[]): { x: number; y: number; width: number; height: number; vertical: boolean } | null {
  let box: { minX: number; minY: number; maxX: number; maxY: number } | null = null;
  const add = (x1: number, y1: number, x2: number, y2: number) => {
    box = box ? { minX: Math.min(box.minX, x1), minY: Math.min(box.minY, y1), maxX: Math.max(box.maxX, x2), maxY: Math.max(box.maxY, y2) } : { minX: x1, minY: y1, maxX: x2, maxY: y2 };
  };
  for (const seat of seats) add(seat.x, seat.y, seat.x, seat.y);
  for (const section of plan.sections) {
    if (section.standing) add(section.standing.x, section.standing.y, section.standing.x + section.standing.width, section.standing.y + section.standing.height);
  }
  if (!box) return null;
  const { minX, minY, maxX, maxY } = box as { minX: number; minY: number; maxX: number; maxY: number };
  const across = { x: minX, width: Math.max(maxX - minX, BAND) };
  const along = { y: minY, height: Math.max(maxY - minY, BAND) };
  switch (plan.front ?? "top") {
    case "bottom":
      return { ...across, y: maxY + GAP, height: BAND, vertical: false };
    case "left":
      return { ...along, x: Math.max(0, minX - GAP - BAND), width: BAND, vertical: true };
    case "right":
      return { ...along, x: maxX + GAP, width: BAND, vertical: true };
    default:
      return { ...across, y: Math.max(0, minY - GAP - BAND), height: BAND, vertical: false };
  }
}
