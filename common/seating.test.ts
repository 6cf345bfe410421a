import { describe, expect, it } from "vitest";
import { bestAvailable, planProblems, SEATING_MESSAGES, seatLabel, seatsPerCategory, ticketSeat } from "./seating";
import { seatPlanSchema, type SeatPlan } from "./seating-plan";

/**
 * A small plan: `rows` is one string per row, front row first (lowest y), one character per seat position:
 * a letter is a seat of that category ("p" Platea, "v" VIP), a space is an aisle (no seat there). Seats are
 * numbered 1… left to right, guids "<row><number>" ("A1").
 */
function plan(rows: string[], extra: Partial<SeatPlan> = {}): SeatPlan {
  return seatPlanSchema.parse({
    name: "Teatro de prueba",
    size: { width: 1000, height: 1000 },
    categories: [{ name: "p" }, { name: "v" }],
    sections: [
      {
        id: "platea",
        name: "Platea",
        kind: "numbered",
        rows: rows.map((line, r) => {
          const label = String.fromCharCode(65 + r);
          let number = 0;
          const seats = [...line].flatMap((ch, x) => {
            if (ch === " ") return [];
            number += 1;
            return [{ guid: `${label}${number}`, number: String(number), x: x * 10, y: r * 10, category: ch }];
          });
          return { label, seats };
        }),
      },
    ],
    ...extra,
  });
}

const guids = (answer: ReturnType<typeof bestAvailable>) => ("seats" in answer ? answer.seats.map((s) => s.guid) : answer.error);

describe("best available", () => {
  it("gives the front row's centre first", () => {
    const p = plan(["ppppppp", "ppppppp"]);
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 3 }))).toEqual(["A3", "A4", "A5"]);
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 1 }))).toEqual(["A4"]);
  });

  it("never returns a taken or blocked seat, and goes back a row when the front has no room", () => {
    const p = plan(["pppppp", "pppppp"]);
    const answer = bestAvailable(p, { unavailable: new Set(["A2", "A4", "A6"]), categories: ["p"], quantity: 2 });
    expect(guids(answer)).toEqual(["B3", "B4"]);
  });

  it("keeps the seats in one row and adjacent: an aisle splits a row", () => {
    // Row A: three seats, an aisle, three seats. Four together only fit in row B.
    const p = plan(["ppp ppp", "ppppppp"]);
    // Row B's middle blocks (B2–B5, B3–B6) would leave B1 or B7 alone: the block against the row's start wins.
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 4 }))).toEqual(["B1", "B2", "B3", "B4"]);
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 3 }))).toEqual(["A1", "A2", "A3"]);
  });

  it("a jump in numbering is not adjacent even when the seats are drawn side by side", () => {
    const p = plan(["pppp"]);
    // Renumber: 1, 2, 5, 6 (seats 3 and 4 removed, drawn without a gap).
    p.sections[0].rows[0].seats[2].number = "5";
    p.sections[0].rows[0].seats[3].number = "6";
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 3 }))).toBe(SEATING_MESSAGES.noAdjacent(3));
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 2 }))).toEqual(["A1", "A2"]);
  });

  it("odd numbering (1, 3, 5…) is still adjacent", () => {
    const p = plan(["pppp"]);
    p.sections[0].rows[0].seats.forEach((s, i) => (s.number = String(2 * i + 1)));
    const answer = bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 4 });
    expect("seats" in answer && answer.seats.map((s) => s.number)).toEqual(["1", "3", "5", "7"]);
  });

  it("only the asked categories", () => {
    const p = plan(["vvvvvv", "pppppp"]);
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 2 }))).toEqual(["B3", "B4"]);
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["v"], quantity: 2 }))).toEqual(["A3", "A4"]);
  });

  it("avoids leaving a single empty seat between taken seats when another choice avoids it", () => {
    // Row A: X _ _ _ X _ _  (taken A1 and A5). Two seats: A2–A3 leaves A4 alone; A3–A4 leaves A2 alone;
    // A6–A7 leaves nothing alone: chosen although it is off centre.
    const p = plan(["ppppppp"]);
    expect(guids(bestAvailable(p, { unavailable: new Set(["A1", "A5"]), categories: ["p"], quantity: 2 }))).toEqual(["A6", "A7"]);
  });

  it("avoids leaving a single empty seat at a row's end", () => {
    // Row A of 5, nothing taken, 4 seats: A1–A4 leaves A5 alone at the end and A2–A5 leaves A1; row B of 4 fits exactly.
    const p = plan(["ppppp", "pppp"]);
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 4 }))).toEqual(["B1", "B2", "B3", "B4"]);
  });

  it("accepts a single left alone when nothing else fits", () => {
    const p = plan(["pppp"]);
    expect(guids(bestAvailable(p, { unavailable: new Set(["A1"]), categories: ["p"], quantity: 2 }))).toEqual(["A2", "A3"]);
  });

  it("says so in Spanish when there are not N adjacent seats, rather than splitting", () => {
    const p = plan(["pp pp", "pp pp"]);
    const answer = bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 3 });
    expect(answer).toEqual({ error: "No quedan 3 asientos juntos en una misma fila de esa ubicación. Probá con menos o elegilos en el mapa." });
    expect(bestAvailable(p, { unavailable: new Set(["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]), categories: ["p"], quantity: 1 })).toEqual({
      error: "No quedan asientos libres de esa ubicación. Probá con otra.",
    });
  });

  it("the front is the side the plan says", () => {
    const p = plan(["ppppp", "ppppp", "ppppp"], { front: "bottom" });
    expect(guids(bestAvailable(p, { unavailable: new Set(), categories: ["p"], quantity: 1 }))).toEqual(["C3"]);
  });
});

describe("plan checks", () => {
  it("finds a guid used twice and a category the plan does not list", () => {
    const p = plan(["pp"]);
    p.sections[0].rows[0].seats[1].guid = "A1";
    p.sections[0].rows[0].seats[0].category = "palco";
    expect(planProblems(p)).toEqual(["La categoría «palco» no está en el mapa.", "El asiento «A1» aparece más de una vez en el mapa."]);
  });

  it("counts seats per category", () => {
    expect(Object.fromEntries(seatsPerCategory(plan(["vvp", "ppp"])))).toEqual({ v: 2, p: 4 });
  });
});

describe("the seat as a ticket prints it", () => {
  it("reads section, row and seat in Spanish", () => {
    expect(seatLabel({ section: "Platea", row: "F", number: "12" })).toBe("Platea · Fila F · Asiento 12");
    expect(ticketSeat({ section: "Platea", row: "F", number: "12" })).toEqual({ section: "Platea", row: "F", number: "12", label: "Platea · Fila F · Asiento 12" });
  });

  it("does not say «Fila» twice when the plan's row label already says it", () => {
    expect(seatLabel({ section: "Pullman", row: "Fila 3", number: "7" })).toBe("Pullman · Fila 3 · Asiento 7");
  });

  it("is nothing for a general-admission ticket", () => {
    expect(seatLabel({ section: null, row: null, number: null })).toBeNull();
    expect(ticketSeat({ section: null, row: null, number: null })).toBeNull();
  });
});
