import { useEffect } from "react";

/** Hashes that open a ticket's QR full screen (`#qr-<id>`). */
export const QR_HASH_PREFIX = "#qr-";

/**
 * For the ticket pages only: registers the tickets service worker (public/sw.js)
 * and hands it this page and the assets it loaded, so the page opens again
 * without a connection; while a QR is open full screen, keeps the screen on
 * (Wake Lock API, where the browser has it — the web cannot raise brightness,
 * so the full-screen view is plain white with a big code).
 */
/**
 * Registers the offline service worker (public/sw.js) and hands it this page
 * and the assets it loaded, so the page opens again without a connection
 * (ticket pages and the door screen; the worker refuses any other page).
 * Returns the cleanup for an effect.
 */
export function keepPageOffline(): () => void {
  if (!("serviceWorker" in navigator)) return () => {};
  let cancelled = false;
  navigator.serviceWorker
    .register("/sw.js")
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      if (cancelled) return;
      const assets = new Set<string>();
      for (const entry of performance.getEntriesByType("resource")) assets.add(entry.name);
      document.querySelectorAll<HTMLLinkElement>("link[href]").forEach((l) => assets.add(l.href));
      document.querySelectorAll<HTMLScriptElement>("script[src]").forEach((s) => assets.add(s.src));
      // The page last: the worker caches in order, so a page found in the cache already has its assets (a page
      // kept without its JavaScript would open offline but never come alive).
      const urls = [...[...assets].filter((u) => u.startsWith(location.origin) && u !== location.href), location.href];
      registration.active?.postMessage({ type: "cache-ticket-page", urls });
    })
    .catch(() => {
      // No service worker (private mode, old browser): the page still works online.
    });
  return () => {
    cancelled = true;
  };
}

export function useTicketsOffline() {
  useEffect(() => keepPageOffline(), []);

  useEffect(() => {
    type Sentinel = { release: () => Promise<void> };
    const wakeLock = (navigator as Navigator & { wakeLock?: { request: (type: "screen") => Promise<Sentinel> } }).wakeLock;
    if (!wakeLock) return;
    let sentinel: Sentinel | null = null;
    const sync = async () => {
      // Hidden pages lose their lock (the browser releases it): ask again when visible.
      if (document.visibilityState !== "visible") {
        sentinel = null;
        return;
      }
      const open = location.hash.startsWith(QR_HASH_PREFIX);
      if (open && !sentinel) sentinel = await wakeLock.request("screen").catch(() => null);
      else if (!open && sentinel) {
        await sentinel.release().catch(() => undefined);
        sentinel = null;
      }
    };
    void sync();
    window.addEventListener("hashchange", sync);
    document.addEventListener("visibilitychange", sync);
    return () => {
      window.removeEventListener("hashchange", sync);
      document.removeEventListener("visibilitychange", sync);
      void sentinel?.release().catch(() => undefined);
    };
  }, []);
}
