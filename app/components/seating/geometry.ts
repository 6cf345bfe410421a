// The map's viewport math and keyboard moves, apart from React so they can be tested alone.

export interface SeatPoint {
  guid: string;
  x: number;
  y: number;
}

/** The visible part of the plan, in plan units (an SVG viewBox). */
export interface View {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Direction = "left" | "right" | "up" | "down";

/** Closer than this to the whole plan's width, zooming in stops (about six seats across). */
const MIN_VIEW_FRACTION = 0.08;
/** Room around the plan so edge seats are never cut by the frame. */
const MARGIN = 24;

/** The whole plan with a margin: where the map starts and what "Ver todo" returns to. */
export function fitView(size: { width: number; height: number }): View {
  return { x: -MARGIN, y: -MARGIN, width: size.width + 2 * MARGIN, height: size.height + 2 * MARGIN };
}

/**
 * Zooms by `factor` (>1 closer, <1 farther) keeping `anchor` (plan units) where it is on screen,
 * never farther than the whole plan nor closer than a few seats, and never off the plan.
 */
export function zoomAt(view: View, factor: number, anchor: { x: number; y: number }, size: { width: number; height: number }): View {
  const whole = fitView(size);
  const width = Math.min(whole.width, Math.max(whole.width * MIN_VIEW_FRACTION, view.width / factor));
  const scale = width / view.width;
  const height = view.height * scale;
  const x = anchor.x - (anchor.x - view.x) * scale;
  const y = anchor.y - (anchor.y - view.y) * scale;
  return clampView({ x, y, width, height }, size);
}

/** Moves the view by (dx, dy) plan units, kept over the plan. */
export function panBy(view: View, dx: number, dy: number, size: { width: number; height: number }): View {
  return clampView({ ...view, x: view.x + dx, y: view.y + dy }, size);
}

function clampView(view: View, size: { width: number; height: number }): View {
  const whole = fitView(size);
  const clampAxis = (start: number, length: number, wholeStart: number, wholeLength: number) =>
    length >= wholeLength ? wholeStart + (wholeLength - length) / 2 : Math.min(Math.max(start, wholeStart), wholeStart + wholeLength - length);
  return {
    width: view.width,
    height: view.height,
    x: clampAxis(view.x, view.width, whole.x, whole.width),
    y: clampAxis(view.y, view.height, whole.y, whole.height),
  };
}

/**
 * The seat an arrow key goes to: the nearest seat lying in that direction (within a 45° cone,
 * distance along the arrow weighing less than distance across it, so "right" stays in the row).
 * Null when nothing lies that way.
 */
export function nearestSeatInDirection<T extends SeatPoint>(seats: readonly T[], from: T, direction: Direction): T | null {
  let best: T | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const seat of seats) {
    if (seat.guid === from.guid) continue;
    const dx = seat.x - from.x;
    const dy = seat.y - from.y;
    const along = direction === "right" ? dx : direction === "left" ? -dx : direction === "down" ? dy : -dy;
    const across = direction === "right" || direction === "left" ? Math.abs(dy) : Math.abs(dx);
    if (along <= 0 || across > along) continue;
    const score = along + 3 * across;
    if (score < bestScore) {
      bestScore = score;
      best = seat;
    }
  }
  return best;
}

/** A view centred on `point` keeping its size (so a seat reached by keyboard is on screen). */
export function viewShowing(view: View, point: { x: number; y: number }, size: { width: number; height: number }): View {
  const inside = point.x >= view.x && point.x <= view.x + view.width && point.y >= view.y && point.y <= view.y + view.height;
  if (inside) return view;
  return clampView({ ...view, x: point.x - view.width / 2, y: point.y - view.height / 2 }, size);
}
