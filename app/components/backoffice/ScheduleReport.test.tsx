import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChangeBadge, ScheduleReport, type ScheduleReportView } from "./ScheduleReport";

const schedule: ScheduleReportView = { message: "Fecha creada", badges: { "fecha-1": "Nueva" } };

describe("ScheduleReport and ChangeBadge (server render, as a page without JavaScript gets them)", () => {
  it("announce the save's report as a status and mark only the rows it made or changed", () => {
    expect(renderToString(<ScheduleReport schedule={schedule} />)).toMatch(/<p role="status"[^>]*>Fecha creada<\/p>/);
    expect(renderToString(<ChangeBadge schedule={schedule} id="fecha-1" />)).toContain(">Nueva<");
    expect(renderToString(<ChangeBadge schedule={schedule} id="fecha-2" />)).toBe("");
  });

  it("show nothing when no save left a report", () => {
    expect(renderToString(<ScheduleReport schedule={null} />)).toBe("");
    expect(renderToString(<ChangeBadge schedule={null} id="fecha-1" />)).toBe("");
  });
});
