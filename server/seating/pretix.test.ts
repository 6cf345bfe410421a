import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addCategory, addSeatBlock, addStandingSection, markSeats, validatePlan } from "#common/seating-editor";
import { listPlanSeats, type SeatPlan } from "#common/seating-plan";
import { exportPretixPlan, importPretixPlan, pretixPlanSchema } from "./pretix";

const fixtureText = readFileSync(new URL("../../tests/fixtures/seating/pretix-teatro-del-pasaje.json", import.meta.url), "utf8");

/** A fresh, editable copy of the fixture as data. */
function fixture(): any {
  return JSON.parse(fixtureText);
}

function importOk(input: unknown): { plan: SeatPlan; warnings: string[] } {
  const result = importPretixPlan(typeof input === "string" ? input : JSON.stringify(input));
  if (!result.ok) throw new Error(`Import refused: ${result.errors.join(" | ")}`);
  return result;
}

function importErrors(input: unknown): string[] {
  const result = importPretixPlan(typeof input === "string" ? input : JSON.stringify(input));
  if (result.ok) throw new Error("Import accepted a plan it should refuse");
  return result.errors;
}

describe("importing a pretix plan", () => {
  it("turns zones with seats into sections and places each seat at zone + row + seat position", () => {
    const { plan, warnings } = importOk(fixtureText);
    expect(warnings).toEqual([]);
    expect(validatePlan(plan)).toEqual([]);
    expect(plan.name).toBe("Teatro del Pasaje");
    expect(plan.size).toEqual({ width: 460, height: 420 });
    expect(plan.categories).toEqual([
      { name: "Platea", color: "#3b82f6" },
      { name: "Pullman", color: "#f59e0b" },
    ]);
    // The stage's zone has no seats: it is not a section, its areas are drawings.
    expect(plan.sections.map((s) => [s.id, s.name, s.kind])).toEqual([
      ["platea", "Platea", "numbered"],
      [fixture().zones[2].uuid, "Pullman", "numbered"],
    ]);
    const seats = listPlanSeats(plan);
    expect(seats).toHaveLength(40);
    const byGuid = new Map(seats.map((s) => [s.guid, s]));
    // Row B is staggered 14 units right; the zone sits at (150, 120).
    expect(byGuid.get("platea-B-1")).toMatchObject({ section: "Platea", row: "B", number: "1", x: 164, y: 150, category: "Platea" });
    expect(byGuid.get("platea-D-6")).toMatchObject({ x: 150 + 14 + 5 * 28, y: 120 + 90 });
    // Pullman row 2, the leftmost seat (number 8) is raised 6 units by the row's curve.
    const pullman = plan.sections[1]!.rows[1]!.seats[0]!;
    expect(pullman).toMatchObject({ number: "8", x: 110.5, y: 300 + 32 - 6, category: "Pullman" });
    expect(plan.sections[1]!.rows[0]!.seats.filter((s) => s.category === "Platea").map((s) => s.number)).toEqual(["2", "1"]);
  });

  it("keeps areas as drawings: rectangles as they are, circles, polygons and text by their box", () => {
    const { plan } = importOk(fixtureText);
    expect(plan.shapes).toEqual([
      { x: 80, y: 20, width: 300, height: 60, text: "ESCENARIO", color: "#e5e7eb" },
      { x: 28, y: 228, width: 24, height: 24, color: "#9ca3af" },
      { x: 400, y: 380, width: 50, height: 14, text: "Salida" },
      { x: 100.5, y: 280, width: 240, height: 4, color: "#d1d5db" },
    ]);
  });

  it("imports with a warning what it has to name or cannot draw", () => {
    const data = fixture();
    data.name = " ";
    data.zones[0].areas[1].circle.radius = 0;
    delete data.zones[2].name;
    const { plan, warnings } = importOk(data);
    expect(warnings).toEqual([
      "El plano no tenía nombre: lo llamamos «Plano importado de pretix».",
      "Zona «Escenario», área n.º 2: no tiene una forma con tamaño y no se dibuja.",
    ]);
    expect(plan.name).toBe("Plano importado de pretix");
    expect(plan.sections[1]!.name).toBe("Zona 3");
    expect(plan.shapes).toHaveLength(3);
  });

  it("refuses guids and numbers longer than Tribuna keeps", () => {
    const data = fixture();
    data.zones[1].rows[0].seats[0].seat_guid = "g".repeat(65);
    data.zones[1].rows[0].seats[1].seat_number = "1234567890123";
    expect(importErrors(data)).toEqual([
      "Zona «Platea», fila «A», asiento 1: el identificador (seat_guid) tiene 65 caracteres y Tribuna admite hasta 64.",
      "Zona «Platea», fila «A», asiento 1234567890123: el número de asiento (seat_number) tiene más de 12 caracteres.",
    ]);
  });

  it("round trips: import, export and import again give the same plan, and the export passes pretix's schema", () => {
    const first = importOk(fixtureText).plan;
    const exported = exportPretixPlan(first);
    expect(exported.warnings).toEqual([]);
    expect(pretixPlanSchema.safeParse(exported.plan).success).toBe(true);
    const second = importOk(JSON.stringify(exported.plan)).plan;
    expect(second).toEqual(first);
  });
});

describe("exporting our plan to pretix", () => {
  function ourPlan(): SeatPlan {
    let plan: SeatPlan = { name: "Sala Tribuna", size: { width: 800.5, height: 600 }, categories: [], sections: [], shapes: [] };
    plan = addCategory(plan, { name: "Platea", color: "#0969da" });
    plan = addCategory(plan, { name: "Pullman" });
    plan = addCategory(plan, { name: "Campo" });
    plan = addSeatBlock(plan, {
      section: { name: "Platea" },
      rows: 3,
      seatsPerRow: 10,
      firstRowLabel: "A",
      numbering: "odd-even",
      origin: { x: 100, y: 150 },
      curve: 25,
      gaps: [5],
      category: "Platea",
    });
    plan = addSeatBlock(plan, {
      section: { name: "Pullman" },
      rows: 2,
      seatsPerRow: 6,
      firstRowLabel: "1",
      numbering: "rtl",
      origin: { x: 150, y: 320 },
      rowOffset: 12.5,
      category: "Pullman",
    });
    plan = addStandingSection(plan, { name: "Campo", category: "Campo", capacity: 300, x: 100, y: 450, width: 400, height: 100 });
    plan = { ...plan, shapes: [{ x: 150, y: 20, width: 300, height: 50, text: "Escenario", color: "#cccccc" }] };
    return markSeats(plan, [plan.sections[0]!.rows[0]!.seats[0]!.guid], { accessible: true });
  }

  it("keeps guids, numbers, rows, categories and positions through pretix and back", () => {
    const plan = ourPlan();
    const { plan: pretix, warnings } = exportPretixPlan(plan);
    expect(pretixPlanSchema.safeParse(pretix).success).toBe(true);
    expect(pretix.size).toEqual({ width: 801, height: 600 });
    expect(warnings).toEqual([
      "El sector sin numerar «Campo» va como dibujo: pretix no vende lugares sin numerar desde el plano.",
      "pretix no tiene marcas de accesible ni de visión reducida: 1 asiento pierde la suya.",
    ]);
    const back = importOk(JSON.stringify(pretix)).plan;
    const strip = (p: SeatPlan) => listPlanSeats(p).map(({ guid, number, x, y, category, sectionId, section, row }) => ({ guid, number, x, y, category, sectionId, section, row }));
    expect(strip(back)).toEqual(strip(plan));
    expect(back.categories).toEqual(plan.categories);
    // What pretix cannot hold: the standing area comes back as a drawing, the mark is gone.
    expect(back.sections.map((s) => s.name)).toEqual(["Platea", "Pullman"]);
    expect(back.shapes).toContainEqual({ x: 100, y: 450, width: 400, height: 100, text: "Campo" });
    expect(back.shapes).toContainEqual({ x: 150, y: 20, width: 300, height: 50, text: "Escenario", color: "#cccccc" });
    expect(listPlanSeats(back).some((s) => s.accessible)).toBe(false);
  });
});

describe("refusing a bad pretix file, saying what and where", () => {
  it("refuses text that is not JSON", () => {
    expect(importErrors("{ zones: [")).toEqual(["El archivo no es un JSON válido."]);
    expect(importErrors(" ".repeat(40_000_001))).toEqual(["El archivo es demasiado grande: Tribuna admite planos de hasta 40 millones de caracteres."]);
    expect(importErrors("[1, 2]")).toEqual(["El archivo no es un plano de pretix: tiene que ser un objeto con name, zones, categories y size."]);
  });

  it("names the seat without a guid", () => {
    const data = fixture();
    delete data.zones[1].rows[1].seats[2].seat_guid;
    expect(importErrors(data)).toEqual(["Zona «Platea», fila «B», asiento 3: falta el identificador (seat_guid)."]);
    const blank = fixture();
    blank.zones[1].rows[1].seats[2].seat_guid = "  ";
    expect(importErrors(blank)).toEqual(["Zona «Platea», fila «B», asiento 3: falta el identificador (seat_guid)."]);
  });

  it("names a seat whose category is not in the list", () => {
    const data = fixture();
    data.zones[1].rows[1].seats[2].category = "VIP";
    expect(importErrors(data)).toEqual(["La categoría «VIP» del asiento 3 (zona «Platea», fila «B») no está en la lista de categorías."]);
    const empty = fixture();
    empty.zones[2].rows[0].seats[0].category = "";
    expect(importErrors(empty)).toEqual(["Zona «Pullman», fila «1», asiento 8: falta la categoría (category)."]);
  });

  it("names both seats that share a guid", () => {
    const data = fixture();
    data.zones[1].rows[0].seats[0].seat_guid = "a1b2";
    data.zones[2].rows[1].seats[3].seat_guid = "a1b2";
    expect(importErrors(data)).toEqual([
      "Hay dos asientos con el identificador «a1b2»: zona «Platea», fila «A», asiento 1 y zona «Pullman», fila «2», asiento 2.",
    ]);
  });

  it("refuses fields pretix's schema does not allow, wrong types and missing parts, as pretix would", () => {
    const data = fixture();
    data.zones[1].rows[0].seats[1].seat_label = "Butaca 2"; // pretix has seat_label on the row, not the seat
    data.zones[0].areas[0].rectangle.width = 300.5;
    data.zones[2].rows[0].seats[0].position = { x: "10", y: 0 };
    data.zones[2].rows[0].row_number_position = "middle";
    delete data.size;
    expect(importErrors(data)).toEqual([
      "Zona «Escenario», área n.º 1: el ancho (rectangle.width) tiene que ser un número entero.",
      "Zona «Platea», fila «A», asiento 2: tiene un dato que pretix no admite: «seat_label».",
      "Zona «Pullman», fila «1», asiento 8: la coordenada x (position.x) tiene que ser un número.",
      "Zona «Pullman», fila «1»: dónde se muestra el número de fila (row_number_position) tiene que ser uno de «start», «end», «both».",
      "El plano: falta el tamaño (size).",
    ]);
  });

  it("refuses two seats in the same place, and categories listed twice", () => {
    const data = fixture();
    data.zones[1].rows[1].seats[2].position = { ...data.zones[1].rows[1].seats[1].position };
    expect(importErrors(data)).toEqual(["Zona «Platea», fila B, asiento 3: está en el mismo lugar que zona «Platea», fila B, asiento 2."]);
    const twice = fixture();
    twice.categories.push({ name: "Platea", color: "#000000" });
    expect(importErrors(twice)).toEqual(["La categoría «Platea» está dos veces en la lista de categorías."]);
  });

  it("refuses control characters, saying where", () => {
    const data = fixture();
    data.zones[2].rows[1].row_number = "2\n";
    expect(importErrors(data)).toEqual([
      "Zona «Pullman», fila «2»: el número de fila (row_number) tiene caracteres de control; sacalos y volvé a subir el archivo.",
    ]);
  });

  it("refuses a plan over Tribuna's limits with one line", () => {
    const data = fixture();
    const row = data.zones[1].rows[0];
    row.seats = Array.from({ length: 60_001 }, (_, i) => ({ seat_guid: `g${i}`, seat_number: String(i + 1), position: { x: i, y: 0 }, category: "Platea" }));
    expect(importErrors(data)).toEqual(["El plano tiene 60035 asientos y Tribuna admite hasta 60000."]);
  });
});
