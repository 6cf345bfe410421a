import { describe, expect, it } from "vitest";
import { fitView, nearestSeatInDirection, panBy, viewShowing, zoomAt } from "./geometry";

const size = { width: 1000, height: 600 };
// Two rows of five seats, 30 units apart; row B is 40 below row A.
const seats = ["A", "B"].flatMap((row, r) => Array.from({ length: 5 }, (_, i) => ({ guid: `${row}${i + 1}`, x: 100 + i * 30, y: 100 + r * 40 })));
const seat = (guid: string) => seats.find((s) => s.guid === guid)!;

describe("the seat map's keyboard moves", () => {
  it("arrows go to the next seat in the row, and up and down change row at the same place", () => {
    expect(nearestSeatInDirection(seats, seat("A2"), "right")?.guid).toBe("A3");
    expect(nearestSeatInDirection(seats, seat("A2"), "left")?.guid).toBe("A1");
    expect(nearestSeatInDirection(seats, seat("A2"), "down")?.guid).toBe("B2");
    expect(nearestSeatInDirection(seats, seat("B4"), "up")?.guid).toBe("A4");
  });

  it("nothing lies beyond the row's end or above the first row", () => {
    expect(nearestSeatInDirection(seats, seat("A5"), "right")).toBeNull();
    expect(nearestSeatInDirection(seats, seat("A3"), "up")).toBeNull();
  });
});

describe("the seat map's zoom and pan", () => {
  it("starts showing the whole plan and never zooms out past it", () => {
    const whole = fitView(size);
    expect(whole.width).toBeGreaterThan(size.width);
    expect(zoomAt(whole, 0.5, { x: 500, y: 300 }, size)).toEqual(whole);
  });

  it("zooming keeps the point under the finger in place and stops a few seats across", () => {
    const whole = fitView(size);
    const closer = zoomAt(whole, 2, { x: 200, y: 150 }, size);
    expect(closer.width).toBeCloseTo(whole.width / 2);
    // The anchor sits at the same fraction of the view before and after.
    expect((200 - closer.x) / closer.width).toBeCloseTo((200 - whole.x) / whole.width);
    let view = whole;
    for (let i = 0; i < 30; i++) view = zoomAt(view, 2, { x: 500, y: 300 }, size);
    expect(view.width).toBeGreaterThan(50);
  });

  it("panning stays over the plan, and a seat reached off screen is brought into view", () => {
    const close = zoomAt(fitView(size), 4, { x: 500, y: 300 }, size);
    const far = panBy(close, 10_000, 10_000, size);
    expect(far.x + far.width).toBeLessThanOrEqual(size.width + 24 + 0.001);
    expect(far.y + far.height).toBeLessThanOrEqual(size.height + 24 + 0.001);
    const shown = viewShowing(far, { x: 0, y: 0 }, size);
    expect(shown.x).toBeLessThanOrEqual(0);
    expect(shown.y).toBeLessThanOrEqual(0);
    expect(viewShowing(shown, { x: 1, y: 1 }, size)).toBe(shown);
  });
});
