import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PlanBackdrop, stageBand } from "./PlanBackdrop";

const row = (label: string, y: number) => ({ label, seats: [0, 1, 2].map((i) => ({ guid: `${label}${i}`, number: String(i + 1), x: 100 + i * 20, y, category: "Platea" })) });
const rows = [row("A", 100), row("B", 130)];
const seats = rows.flatMap((r) => r.seats);
// As the buyer's page gets it: the numbered rows travel as seats, not in the sections.
const sections = [{ id: "s", name: "Platea", kind: "numbered" as const, rows: [] }];

describe("the plan's backdrop", () => {
  it("a plan without drawings (made in the editor) says where the stage is, on its front side", () => {
    expect(stageBand({ sections }, seats)).toEqual({ x: 100, y: 60, width: 40, height: 24, vertical: false });
    expect(stageBand({ sections, front: "bottom" }, seats)).toEqual({ x: 100, y: 146, width: 40, height: 24, vertical: false });
    expect(stageBand({ sections, front: "left" }, seats)).toMatchObject({ x: 60, y: 100, vertical: true });
    expect(stageBand({ sections, front: "right" }, seats)).toMatchObject({ x: 156, vertical: true });
    expect(stageBand({ sections: [] }, [])).toBeNull();
    const html = renderToString(
      <svg>
        <PlanBackdrop plan={{ sections, shapes: [] }} seats={seats} colours={new Map()} />
      </svg>,
    );
    expect(html).toContain("Escenario");
  });

  it("a plan with its own drawings (pretix's stage) draws those and no band", () => {
    const html = renderToString(
      <svg>
        <PlanBackdrop plan={{ sections, shapes: [{ text: "Escena", x: 0, y: 0, width: 200, height: 30 }] }} seats={seats} colours={new Map()} />
      </svg>,
    );
    expect(html).toContain("Escena");
    expect(html).not.toContain("Escenario");
  });
});
