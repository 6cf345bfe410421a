import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SeatChecklist } from "./SeatChecklist";
import { SeatStateLegend, SeatStateMap, type AdminSeat } from "./SeatStateMap";

const seat = (guid: string, number: string, state: AdminSeat["state"], reason: string | null = null): AdminSeat => ({ guid, x: Number(number) * 20, y: 20, section: "Platea", row: "A", number, category: "Platea", state, reason });
const SEATS = [seat("A1", "1", "free"), seat("A2", "2", "held"), seat("A3", "3", "sold"), seat("A4", "4", "blocked", "Prensa")];
const PLAN = { size: { width: 100, height: 40 }, shapes: [], sections: [], categories: [{ name: "Platea", color: "#38bdf8" }] };

describe("the organizer's live seat map, without JavaScript", () => {
  it("tells each state by its mark, not only its colour, and says the counts", () => {
    const html = renderToString(<SeatStateMap plan={PLAN} seats={SEATS} summary="1 libre, 1 reservado, 1 vendido, 1 bloqueado" />);
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="1 libre, 1 reservado, 1 vendido, 1 bloqueado"');
    const drawn = (guid: string) => html.slice(html.indexOf(`data-seat="${guid}"`), html.indexOf("</g>", html.indexOf(`data-seat="${guid}"`)));
    expect(drawn("A1")).toContain('fill="#38bdf8"');
    expect(drawn("A2")).toContain("url(#admin-seat-dots)");
    expect(drawn("A2")).toContain('stroke-dasharray="2.5 1.5"');
    expect(drawn("A3")).toMatch(/<path d="M-4 -4 L4 4 M4 -4 L-4 4"/);
    expect(drawn("A4")).toContain("url(#admin-seat-hatch)");
    expect(drawn("A4")).toContain("<title>Platea · Fila A · Asiento 4: bloqueado (Prensa)</title>");

    const legend = renderToString(<SeatStateLegend counts={{ free: 120, held: 3, sold: 1500, blocked: 4 }} />);
    for (const text of ["Libres", "Reservados", "Vendidos", "Bloqueados", "120", "1.500"]) expect(legend).toContain(text);
  });

  it("lists every seat as a checkbox by row; held and sold ones are shown but cannot be chosen", () => {
    const html = renderToString(<SeatChecklist seats={SEATS} chosen={new Set(["A4"])} onToggle={() => {}} />);
    expect(html).toContain("<legend");
    expect(html).toContain("Fila A");
    const input = (guid: string) => html.slice(html.indexOf(`id="asiento-${guid}"`) - 20, html.indexOf("/>", html.indexOf(`id="asiento-${guid}"`)));
    expect(input("A1")).toContain('name="seats"');
    expect(input("A1")).not.toContain("disabled");
    expect(input("A2")).toContain("disabled");
    expect(input("A3")).toContain("disabled");
    expect(input("A4")).toContain('checked=""');
    expect(html).toContain(", fila A, Platea: bloqueado (Prensa)");
  });
});
