import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MapSeat } from "#common/seating";
import { SeatMap, seatDescription } from "./SeatMap";

const plan = {
  size: { width: 400, height: 200 },
  categories: [
    { name: "Platea", color: "#38bdf8" },
    { name: "Pullman", color: "#f472b6" },
  ],
  sections: [],
  shapes: [{ text: "Escenario", x: 100, y: 0, width: 200, height: 30 }],
};
const seat = (guid: string, state: MapSeat["state"], extra: Partial<MapSeat> = {}): MapSeat => ({ guid, x: 50, y: 80, number: guid.slice(1), row: guid[0], section: "Platea", category: "Platea", state, ...extra });
const seats = [seat("A1", "free"), seat("A2", "sold"), seat("A3", "blocked"), seat("A4", "free", { accessible: true }), seat("A5", "free", { restrictedView: true, category: "Pullman", section: "Pullman" })];
const prices = { Platea: "$ 15.000", Pullman: "$ 9.000" };

function render(selected: string[] = []) {
  return renderToString(<SeatMap plan={plan} seats={seats} priceLabels={prices} selected={selected} onToggle={() => {}} maxSelected={4} />);
}

describe("the seat map", () => {
  it("tells each seat's place, traits and price or state in words, not by colour alone", () => {
    expect(seatDescription(seats[0], prices, false)).toBe("Platea, fila A, asiento 1 · $ 15.000");
    expect(seatDescription(seats[1], prices, false)).toBe("Platea, fila A, asiento 2 · ocupado");
    expect(seatDescription(seats[2], prices, false)).toBe("Platea, fila A, asiento 3 · no disponible");
    expect(seatDescription(seats[3], prices, false)).toBe("Platea, fila A, asiento 4 · para silla de ruedas · $ 15.000");
    expect(seatDescription(seats[4], prices, true)).toBe("Pullman, fila A, asiento 5 · visión reducida · elegido");
  });

  it("marks taken seats with a cross, blocked ones with a hatch, wheelchair seats square and chosen ones checked", () => {
    const html = render(["A1"]);
    expect(html).toMatch(/data-seat="A1" data-state="chosen" role="checkbox" aria-checked="true"/);
    expect(html).toMatch(/data-seat="A2" data-state="sold"[^>]*aria-disabled="true"/);
    expect(html).toContain('fill="url(#seat-blocked-hatch)"');
    expect(html).toMatch(/data-seat="A4"[^>]*><rect/);
    expect(html).toContain("Escenario");
  });

  it("lists the chosen seats with their price and posts them with the form", () => {
    const html = render(["A1", "A5"]);
    expect(html).toContain("Elegiste 2 de 4");
    expect(html).toContain('<input type="hidden" name="seats" value="A1"/>');
    expect(html).toContain('<input type="hidden" name="seats" value="A5"/>');
    expect(render()).toContain("Todavía no elegiste asientos");
  });
});
