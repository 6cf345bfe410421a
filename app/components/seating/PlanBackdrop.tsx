import type { SeatPlan } from "#common/seating-plan";

/**
 * What a seat map draws under the seats: the plan's shapes (stage, bars) and its standing areas, in the
 * colour of their category. Shared by the buyer's map and the organizer's live map; decoration only.
 */
export function PlanBackdrop({ plan, colours }: { plan: Pick<SeatPlan, "shapes" | "sections">; colours: Map<string, string> }) {
  return (
    <>
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
