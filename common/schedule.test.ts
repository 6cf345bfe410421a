import { describe, expect, it } from "vitest";
import { dateChangeBadge, NO_SCHEDULE_CHANGES, scheduleChangeReport, scheduleReportFromCounts, ticketTypeChangeBadge } from "./schedule";

describe("the change report of a save of dates and ticket types", () => {
  it("says each change in one sentence, singular or plural, and that nothing changed when every row was left alone", () => {
    expect(scheduleChangeReport({ dates: [{ action: "create" }], ticketTypes: [] })).toBe("Fecha creada");
    expect(scheduleChangeReport({ dates: [{ action: "update" }], ticketTypes: [{ action: "no_update" }] })).toBe("Fecha modificada");
    expect(scheduleChangeReport({ dates: [], ticketTypes: [{ action: "delete" }] })).toBe("Tipo de entrada eliminado");
    expect(scheduleChangeReport({ dates: [{ action: "no_update" }], ticketTypes: [{ action: "no_update" }] })).toBe(NO_SCHEDULE_CHANGES);
    expect(NO_SCHEDULE_CHANGES).toBe("No había cambios para guardar");
    expect(
      scheduleChangeReport({
        dates: [{ action: "create" }, { action: "create" }, { action: "delete" }],
        ticketTypes: [{ action: "update" }, { action: "update" }, { action: "create" }],
      }),
    ).toBe("2 fechas creadas, fecha eliminada, tipo de entrada creado y 2 tipos de entrada modificados");
  });

  it("reads the counts the record of changes keeps", () => {
    expect(scheduleReportFromCounts({ dates: { create: 0, update: 1, delete: 0, no_update: 3 }, ticketTypes: { update: 3 } })).toBe("Fecha modificada y 3 tipos de entrada modificados");
    expect(scheduleReportFromCounts({})).toBe(NO_SCHEDULE_CHANGES);
  });

  it("marks a date by its spec status and a ticket type by its action", () => {
    expect([dateChangeBadge("created"), dateChangeBadge("modified"), dateChangeBadge("active"), dateChangeBadge("deleted")]).toEqual(["Nueva", "Modificada", null, null]);
    expect([ticketTypeChangeBadge("create"), ticketTypeChangeBadge("update"), ticketTypeChangeBadge("no_update"), ticketTypeChangeBadge("delete")]).toEqual(["Nueva", "Modificada", null, null]);
  });
});
