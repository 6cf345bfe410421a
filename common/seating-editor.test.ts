import { describe, expect, it } from "vitest";
import { SEAT_PLAN_LIMITS, listPlanSeats, seatPlanSchema, type SeatPlan } from "./seating-plan";
import {
  SeatPlanEditError,
  addCategory,
  addSeatBlock,
  addStandingSection,
  markSeats,
  moveSection,
  removeSeats,
  renameCategory,
  renumberRow,
  renumberSection,
  rowLabels,
  seatNumbersLeftToRight,
  setSeatCategory,
  validatePlan,
} from "./seating-editor";

function emptyPlan(): SeatPlan {
  return {
    name: "Teatro de prueba",
    size: { width: 1000, height: 800 },
    categories: [
      { name: "Platea", color: "#1f6feb" },
      { name: "Pullman", color: "#bf8700" },
    ],
    sections: [],
    shapes: [],
  };
}

function platea(extra: Partial<Parameters<typeof addSeatBlock>[1]> = {}): SeatPlan {
  return addSeatBlock(emptyPlan(), {
    section: { name: "Platea" },
    rows: 3,
    seatsPerRow: 10,
    firstRowLabel: "A",
    numbering: "ltr",
    origin: { x: 100, y: 200 },
    category: "Platea",
    ...extra,
  });
}

function rowNumbers(plan: SeatPlan, sectionIndex = 0, rowIndex = 0): string[] {
  // Left to right as drawn, whatever order the list keeps.
  return [...plan.sections[sectionIndex]!.rows[rowIndex]!.seats].sort((a, b) => a.x - b.x).map((s) => s.number);
}

describe("seat numbering", () => {
  it("numbers a 10-seat row odd on the right and even on the left, outward from the centre", () => {
    expect(seatNumbersLeftToRight(10, "odd-even")).toEqual([10, 8, 6, 4, 2, 1, 3, 5, 7, 9]);
    // An odd count: the middle seat is 1 and belongs to the odd (right) half.
    expect(seatNumbersLeftToRight(7, "odd-even")).toEqual([6, 4, 2, 1, 3, 5, 7]);
    expect(seatNumbersLeftToRight(4, "ltr", 5)).toEqual([5, 6, 7, 8]);
    expect(seatNumbersLeftToRight(4, "rtl")).toEqual([4, 3, 2, 1]);
  });

  it("labels rows by letters past Z and by numbers", () => {
    expect(rowLabels("A", 3)).toEqual(["A", "B", "C"]);
    expect(rowLabels("Y", 4)).toEqual(["Y", "Z", "AA", "AB"]);
    expect(rowLabels("7", 3)).toEqual(["7", "8", "9"]);
    expect(() => rowLabels("Fila!", 2)).toThrow(SeatPlanEditError);
  });
});

describe("addSeatBlock", () => {
  it("creates a new section with rows, unique guids and straight rows at the given spacing", () => {
    const plan = platea({ seatSpacing: 25, rowSpacing: 40 });
    expect(seatPlanSchema.safeParse(plan).success).toBe(true);
    expect(validatePlan(plan)).toEqual([]);
    const section = plan.sections[0]!;
    expect(section).toMatchObject({ name: "Platea", kind: "numbered" });
    expect(section.rows.map((r) => r.label)).toEqual(["A", "B", "C"]);
    const seats = listPlanSeats(plan);
    expect(seats).toHaveLength(30);
    expect(new Set(seats.map((s) => s.guid)).size).toBe(30);
    const a = section.rows[0]!.seats;
    expect(a[0]).toMatchObject({ number: "1", x: 100, y: 200, category: "Platea" });
    expect(a[9]).toMatchObject({ number: "10", x: 100 + 9 * 25, y: 200 });
    expect(section.rows[2]!.seats[0]).toMatchObject({ x: 100, y: 280 });
  });

  it("numbers odd-even in a block and starts where asked", () => {
    const plan = platea({ numbering: "odd-even", rows: 1 });
    expect(rowNumbers(plan)).toEqual(["10", "8", "6", "4", "2", "1", "3", "5", "7", "9"]);
    const rtl = platea({ numbering: "rtl", startNumber: 101, rows: 1, seatsPerRow: 3 });
    expect(rowNumbers(rtl)).toEqual(["103", "102", "101"]);
  });

  it("leaves aisles after the given seats without skipping numbers", () => {
    const plan = platea({ rows: 1, seatsPerRow: 6, gaps: [2, 4], seatSpacing: 30 });
    const xs = plan.sections[0]!.rows[0]!.seats.map((s) => s.x);
    expect(xs).toEqual([100, 130, 190, 220, 280, 310]);
    expect(rowNumbers(plan)).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(() => platea({ gaps: [10] })).toThrow("El pasillo después del asiento 10 no entra en una fila de 10 asientos.");
  });

  it("staggers every second row by the row offset", () => {
    const plan = platea({ rowOffset: 15 });
    const firstX = plan.sections[0]!.rows.map((r) => r.seats[0]!.x);
    expect(firstX).toEqual([100, 115, 100]);
  });

  it("curves rows into symmetric, concentric arcs whose ends come toward the stage", () => {
    const plan = platea({ curve: 20, rows: 2, seatsPerRow: 9, numbering: "odd-even" });
    for (const row of plan.sections[0]!.rows) {
      const seats = row.seats;
      const centreX = 100 + (8 * 30) / 2;
      for (let i = 0; i < seats.length; i++) {
        const mirror = seats[seats.length - 1 - i]!;
        expect(seats[i]!.x - centreX).toBeCloseTo(centreX - mirror.x, 1);
        expect(seats[i]!.y).toBeCloseTo(mirror.y, 1);
      }
      const middle = seats[4]!;
      expect(middle.x).toBeCloseTo(centreX, 5);
      // Ends are nearer the stage (smaller y) than the middle.
      expect(seats[0]!.y).toBeLessThan(middle.y);
      // Neighbours stay about one seat apart along the arc.
      const d = Math.hypot(seats[1]!.x - seats[0]!.x, seats[1]!.y - seats[0]!.y);
      expect(d).toBeGreaterThan(29);
      expect(d).toBeLessThanOrEqual(30.01);
    }
    const [a, b] = plan.sections[0]!.rows;
    expect(b!.seats[4]!.y - a!.seats[4]!.y).toBeCloseTo(30, 5);
    // The middle seat of an odd-even row with 9 seats is number 1.
    expect(a!.seats[4]!.number).toBe("1");
    expect(validatePlan(plan)).toEqual([]);
  });

  it("adds rows to an existing section and refuses a row label it already has", () => {
    const plan = platea({ rows: 2 });
    const sectionId = plan.sections[0]!.id;
    const more = addSeatBlock(plan, {
      section: { id: sectionId },
      rows: 1,
      seatsPerRow: 4,
      firstRowLabel: "C",
      numbering: "ltr",
      origin: { x: 100, y: 260 },
      category: "Platea",
    });
    expect(more.sections).toHaveLength(1);
    expect(more.sections[0]!.rows.map((r) => r.label)).toEqual(["A", "B", "C"]);
    expect(plan.sections[0]!.rows).toHaveLength(2); // the input is not changed
    expect(() =>
      addSeatBlock(plan, { section: { id: sectionId }, rows: 1, seatsPerRow: 2, firstRowLabel: "B", numbering: "ltr", origin: { x: 0, y: 0 }, category: "Platea" }),
    ).toThrow("«Platea» ya tiene una fila B. Elegí otra primera fila.");
  });

  it("refuses a category the plan does not have and a block over the seat limit", () => {
    expect(() => platea({ category: "VIP" })).toThrow("La categoría «VIP» no está en la lista de categorías del plano.");
    expect(() => platea({ origin: { x: 19_900, y: 0 } })).toThrow("El bloque se sale del área de dibujo: las posiciones van de -20000 a 20000.");
    expect(() => platea({ rows: 1000, seatsPerRow: 61 })).toThrow(`El plano quedaría con 61000 asientos y el máximo es ${SEAT_PLAN_LIMITS.maxSeats}.`);
  });
});

describe("renumbering", () => {
  it("renumbers one row by position and leaves the others", () => {
    const plan = platea();
    const sectionId = plan.sections[0]!.id;
    const next = renumberRow(plan, { sectionId, rowIndex: 1 }, "odd-even");
    expect(rowNumbers(next, 0, 1)).toEqual(["10", "8", "6", "4", "2", "1", "3", "5", "7", "9"]);
    expect(rowNumbers(next, 0, 0)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    // guids stay with their seats: only numbers change.
    expect(next.sections[0]!.rows[1]!.seats.map((s) => s.guid)).toEqual(plan.sections[0]!.rows[1]!.seats.map((s) => s.guid));
  });

  it("renumbers a whole section and relabels its rows", () => {
    const plan = platea();
    const next = renumberSection(plan, plan.sections[0]!.id, { numbering: "rtl", firstRowLabel: "1" });
    expect(next.sections[0]!.rows.map((r) => r.label)).toEqual(["1", "2", "3"]);
    for (let r = 0; r < 3; r++) expect(rowNumbers(next, 0, r)).toEqual(["10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]);
  });
});

describe("seat marks, categories and removal", () => {
  it("marks seats accessible or with restricted view and clears the marks", () => {
    const plan = platea();
    const [s1, s2] = plan.sections[0]!.rows[0]!.seats;
    const marked = markSeats(plan, [s1!.guid, s2!.guid], { accessible: true });
    const viewed = markSeats(marked, [s2!.guid], { restrictedView: true });
    const seats = viewed.sections[0]!.rows[0]!.seats;
    expect(seats[0]).toMatchObject({ accessible: true });
    expect(seats[1]).toMatchObject({ accessible: true, restrictedView: true });
    expect(seats[2]!.accessible).toBeUndefined();
    const cleared = markSeats(viewed, [s2!.guid], { accessible: false });
    expect("accessible" in cleared.sections[0]!.rows[0]!.seats[1]!).toBe(false);
    expect(cleared.sections[0]!.rows[0]!.seats[1]!.restrictedView).toBe(true);
    expect(() => markSeats(plan, ["no-existe"], { accessible: true })).toThrow("El asiento «no-existe» ya no está en el plano.");
  });

  it("moves seats to another category, only one that exists", () => {
    const plan = platea();
    const guids = plan.sections[0]!.rows[2]!.seats.map((s) => s.guid);
    const next = setSeatCategory(plan, guids, "Pullman");
    expect(next.sections[0]!.rows[2]!.seats.every((s) => s.category === "Pullman")).toBe(true);
    expect(next.sections[0]!.rows[1]!.seats.every((s) => s.category === "Platea")).toBe(true);
    expect(() => setSeatCategory(plan, guids, "VIP")).toThrow(SeatPlanEditError);
  });

  it("removes seats and the rows they leave empty; an emptied section is flagged by validatePlan", () => {
    const plan = platea({ rows: 2 });
    const rowA = plan.sections[0]!.rows[0]!.seats.map((s) => s.guid);
    const next = removeSeats(plan, [...rowA, plan.sections[0]!.rows[1]!.seats[0]!.guid]);
    expect(next.sections[0]!.rows.map((r) => r.label)).toEqual(["B"]);
    expect(next.sections[0]!.rows[0]!.seats).toHaveLength(9);
    const all = listPlanSeats(next).map((s) => s.guid);
    const empty = removeSeats(next, all);
    expect(validatePlan(empty).map((p) => p.message)).toEqual(["Sector «Platea»: es numerado y no tiene asientos."]);
  });

  it("moves a section's seats and standing area", () => {
    const plan = addStandingSection(platea({ rows: 1, seatsPerRow: 2 }), {
      name: "Campo",
      category: "Pullman",
      capacity: 500,
      x: 10,
      y: 500,
      width: 300,
      height: 200,
    });
    const moved = moveSection(plan, plan.sections[0]!.id, { dx: 50, dy: -20 });
    expect(moved.sections[0]!.rows[0]!.seats.map((s) => [s.x, s.y])).toEqual([
      [150, 180],
      [180, 180],
    ]);
    const campo = moveSection(moved, plan.sections[1]!.id, { dx: 5, dy: 5 });
    expect(campo.sections[1]!.standing).toMatchObject({ x: 15, y: 505, width: 300, capacity: 500 });
  });
});

describe("categories", () => {
  it("adds a category and refuses one that reads the same", () => {
    const plan = addCategory(emptyPlan(), { name: "Palco", color: "#8250df" });
    expect(plan.categories.map((c) => c.name)).toEqual(["Platea", "Pullman", "Palco"]);
    expect(() => addCategory(plan, { name: " platea " })).toThrow("Ya hay una categoría «platea».");
  });

  it("renames a category on its seats and standing areas", () => {
    const base = addStandingSection(platea({ rows: 1 }), { name: "Campo", category: "Platea", capacity: 10, x: 0, y: 600, width: 100, height: 100 });
    const next = renameCategory(base, "Platea", "Platea baja");
    expect(next.categories[0]).toEqual({ name: "Platea baja", color: "#1f6feb" });
    expect(next.sections[0]!.rows[0]!.seats.every((s) => s.category === "Platea baja")).toBe(true);
    expect(next.sections[1]!.standing!.category).toBe("Platea baja");
    expect(validatePlan(next)).toEqual([]);
    expect(() => renameCategory(base, "Platea", "Pullman")).toThrow("Ya hay una categoría «Pullman».");
    expect(() => renameCategory(base, "VIP", "Otra")).toThrow("No hay una categoría «VIP».");
  });
});

describe("validatePlan", () => {
  it("names duplicate guids, unknown categories, seats in the same place and repeated numbers", () => {
    const plan = platea({ rows: 1, seatsPerRow: 3 });
    const seats = plan.sections[0]!.rows[0]!.seats;
    seats[1] = { ...seats[1]!, guid: seats[0]!.guid };
    seats[2] = { ...seats[2]!, category: "VIP", x: seats[0]!.x, y: seats[0]!.y, number: "1" };
    const messages = validatePlan(plan).map((p) => p.message);
    expect(messages).toContain(`Sector «Platea», fila A, asiento 2: tiene el mismo identificador «${seats[0]!.guid}» que sector «Platea», fila A, asiento 1.`);
    expect(messages).toContain("Sector «Platea», fila A, asiento 1: la categoría «VIP» no está en la lista de categorías.");
    expect(messages).toContain("Sector «Platea», fila A, asiento 1: está en el mismo lugar que sector «Platea», fila A, asiento 1.");
    expect(messages).toContain("Sector «Platea», fila A: el asiento 1 está dos veces.");
  });

  it("flags a standing section without capacity", () => {
    const plan = emptyPlan();
    plan.sections.push({ id: "campo", name: "Campo", kind: "standing", rows: [] });
    expect(validatePlan(plan)).toEqual([
      { code: "standing-without-capacity", sectionId: "campo", message: "Sector «Campo»: es sin numerar y no tiene capacidad." },
    ]);
  });

  it("says when a plan is over the limits, once, instead of one line per seat", () => {
    const plan = emptyPlan();
    plan.size.width = SEAT_PLAN_LIMITS.maxSize + 1;
    plan.categories = Array.from({ length: SEAT_PLAN_LIMITS.maxCategories + 1 }, (_, i) => ({ name: `C${i}` }));
    expect(validatePlan(plan).map((p) => p.message)).toEqual([
      `El plano tiene ${SEAT_PLAN_LIMITS.maxCategories + 1} categorías y el máximo es ${SEAT_PLAN_LIMITS.maxCategories}.`,
      `El ancho del plano es ${SEAT_PLAN_LIMITS.maxSize + 1} y el máximo es ${SEAT_PLAN_LIMITS.maxSize}.`,
    ]);
    const huge = {
      ...emptyPlan(),
      sections: [
        {
          id: "s",
          name: "Estadio",
          kind: "numbered",
          rows: [{ label: "A", seats: Array.from({ length: SEAT_PLAN_LIMITS.maxSeats + 1 }, (_, i) => ({ guid: `g${i}`, number: String(i), x: i % 1000, y: Math.floor(i / 1000), category: "Platea" })) }],
        },
      ],
    };
    expect(validatePlan(huge).map((p) => p.message)).toEqual([`El plano tiene ${SEAT_PLAN_LIMITS.maxSeats + 1} asientos y el máximo es ${SEAT_PLAN_LIMITS.maxSeats}.`]);
  });

  it("describes a broken document by where the problem is", () => {
    const broken = {
      ...emptyPlan(),
      sections: [{ id: "p", name: "Platea", kind: "numbered", rows: [{ label: "B", seats: [{ guid: "", number: "3", x: 0, y: 0, category: "Platea" }] }] }],
    };
    expect(validatePlan(broken).map((p) => p.message)).toEqual(["Sector «Platea», fila B, asiento 3: el identificador está vacío."]);
    const long = structuredClone(broken);
    long.sections[0]!.rows[0]!.seats[0]!.guid = "g";
    long.sections[0]!.rows[0]!.seats[0]!.number = "1234567890123";
    long.sections[0]!.rows[0]!.seats[0]!.x = -30_000;
    expect(validatePlan(long).map((p) => p.message)).toEqual([
      "Sector «Platea», fila B, asiento 1234567890123: el número puede tener hasta 12 caracteres.",
      "Sector «Platea», fila B, asiento 1234567890123: la posición horizontal tiene que ser por lo menos -20000.",
    ]);
  });

  it("refuses control characters anywhere, saying where", () => {
    const plan = platea({ rows: 1, seatsPerRow: 2 });
    plan.sections[0]!.rows[0]!.seats[1]!.number = "2\u0000";
    expect(validatePlan(plan).map((p) => p.message)).toEqual([
      "Sector «Platea», fila A, asiento 2: el número tiene caracteres de control; sacalos y volvé a guardar.",
    ]);
  });
});
