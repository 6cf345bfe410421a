import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { addCategory, addSeatBlock, markSeats } from "#common/seating-editor";
import type { SeatPlan } from "#common/seating-plan";
import { PlanPreview } from "./PlanPreview";

function plan(): SeatPlan {
  const empty: SeatPlan = { name: "Sala Chica", size: { width: 300, height: 200 }, categories: [], sections: [], shapes: [], front: "left" };
  const withCategory = addCategory(empty, { name: "Platea", color: "#2563eb" });
  const block = addSeatBlock(withCategory, { section: { name: "Platea" }, rows: 2, seatsPerRow: 3, firstRowLabel: "A", numbering: "ltr", origin: { x: 40, y: 80 }, category: "Platea" });
  const [first, second] = block.sections[0]!.rows[0]!.seats;
  return markSeats(markSeats(block, [first!.guid], { accessible: true }), [second!.guid], { restrictedView: true });
}

describe("the editor's plan preview", () => {
  it("draws every seat with its category's colour, wheelchair places as squares, restricted view dashed, and says what it shows", () => {
    const html = renderToString(<PlanPreview plan={plan()} />);
    expect(html).toContain('aria-label="Vista previa de «Sala Chica»: 6 asientos en 1 sector, escenario a la izquierda."');
    expect(html.match(/<circle[^>]*fill="#2563eb"/g)).toHaveLength(5);
    expect(html.match(/<rect[^>]*fill="#2563eb"/g)).toHaveLength(1);
    expect(html).toContain('stroke-dasharray="3 3"');
    expect(html).toContain("Platea · Fila A · Asiento 1 · Platea · silla de ruedas");
    expect(html).toContain("ESCENARIO");
    // Row labels to the left of their rows.
    expect(html).toMatch(/text-anchor="end"[^>]*>A<\/text>/);
  });
});
