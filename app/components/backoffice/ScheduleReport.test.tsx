import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChangeBadge, ScheduleReport } from "./ScheduleReport";
import type { ScheduleReply } from "./types";

const reply: ScheduleReply = { values: {}, errors: {}, formErrors: [], snackbar: null, target: null, schedule: { message: "Fecha creada", badges: { "fecha-1": "Nueva" } } };

describe("ScheduleReport and ChangeBadge (server render, as a page without JavaScript gets them)", () => {
  it("announce the save's report as a status and mark only the rows it made or changed", () => {
    expect(renderToString(<ScheduleReport reply={reply} />)).toMatch(/<p role="status"[^>]*>Fecha creada<\/p>/);
    expect(renderToString(<ChangeBadge reply={reply} id="fecha-1" />)).toContain(">Nueva<");
    expect(renderToString(<ChangeBadge reply={reply} id="fecha-2" />)).toBe("");
  });

  it("show nothing after an error or before any save", () => {
    const failed = { ...reply, schedule: undefined } as unknown as ScheduleReply;
    expect(renderToString(<ScheduleReport reply={failed} />)).toBe("");
    expect(renderToString(<ScheduleReport reply={undefined} />)).toBe("");
  });
});
