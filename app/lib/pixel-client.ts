/**
 * The ad pixel's browser side (app/lib/pixel.ts has the rule and the server's inline script): only AdPixel's
 * effect imports it, lazily and only with a valid pixel id, so the pages without `?pixelId=` (nearly all) never
 * download it and the shell does not carry it (decision 239).
 */
import { isValidPixelId, PIXEL_SCRIPT_SRC } from "./pixel";

type Fbq = ((...args: unknown[]) => void) & {
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[];
  push: Fbq;
  loaded: boolean;
  version: string;
};
type PixelWindow = Window & { fbq?: Fbq; _fbq?: Fbq; __pixelIds?: string[] };

/**
 * Client side, after a navigation brought a (new) valid pixel id: the same
 * loader as the inline script, which React does not execute when it inserts it.
 * Returns whether it initialised this id now.
 */
export function loadPixel(pixelId: string, w: PixelWindow = window as PixelWindow): boolean {
  if (!isValidPixelId(pixelId)) return false;
  if (!w.fbq) {
    const n = function (...args: unknown[]) {
      if (n.callMethod) n.callMethod(...args);
      else n.queue.push(args);
    } as Fbq;
    w.fbq = n;
    if (!w._fbq) w._fbq = n;
    n.push = n;
    n.loaded = true;
    n.version = "2.0";
    n.queue = [];
    const script = w.document.createElement("script");
    script.async = true;
    script.src = PIXEL_SCRIPT_SRC;
    w.document.head.appendChild(script);
  }
  const ids = (w.__pixelIds ??= []);
  if (ids.includes(pixelId)) return false;
  ids.push(pixelId);
  w.fbq("init", pixelId);
  w.fbq("track", "PageView");
  return true;
}

/** A PageView for client-side navigations while the page carries a valid pixel id. */
export function trackPixelPageView(w: PixelWindow = window as PixelWindow) {
  w.fbq?.("track", "PageView");
}
