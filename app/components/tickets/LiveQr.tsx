import { useEffect, useState } from "react";
import { hexToBytes, liveCodeAt, liveStepAt, LIVE_QR_PERIOD_MS, msUntilNextCode } from "#common/live-qr";
import { keepPageOffline } from "./useTicketsOffline";

/** What a live ticket hands its QR: its reference, its secret (hex) and from when its static code counts at the door. */
export interface LiveQrData {
  ticketRef: string;
  secretHex: string;
  /** "el 12/12/2026 a las 20:00": from then the static code (PDF, no JavaScript) is admitted too. */
  staticFrom: string;
}

const QR_OPTIONS = { errorCorrectionLevel: "M" as const, margin: 4, color: { dark: "#000000", light: "#ffffff" } };
const PERIOD_SECONDS = LIVE_QR_PERIOD_MS / 1000;

/**
 * The live QR ("QR dinámico", docs/door.md): the code changes every 15 seconds, computed here with no
 * request (common/live-qr.ts, Web Crypto), so it works in airplane mode. The QR is drawn with the same
 * `qrcode` package the server uses, loaded only on the ticket pages and only once JavaScript runs.
 * Before that (or without JavaScript) the static QR shows, with a note saying when it counts.
 */
export function LiveQr({ live, staticSvg, size }: { live: LiveQrData; staticSvg: string; size: "card" | "full" }) {
  const [shown, setShown] = useState<{ code: string; svg: string } | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(PERIOD_SECONDS);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let drawnStep = -1;
    let cachedOffline = false;
    const secret = hexToBytes(live.secretHex);
    const tick = async () => {
      const now = Date.now();
      setSecondsLeft(Math.ceil(msUntilNextCode(now) / 1000));
      const step = liveStepAt(now);
      if (step !== drawnStep) {
        try {
          const code = await liveCodeAt(secret, live.ticketRef, now);
          const { default: QRCode } = await import("qrcode");
          const svg = (await QRCode.toString(code, { ...QR_OPTIONS, type: "svg" })).replace(/\s(width|height)="[^"]*"/g, "");
          if (stopped) return;
          drawnStep = step;
          setShown({ code, svg });
          // The QR drawing code came in a chunk of its own: hand it to the offline copy of the page too.
          if (!cachedOffline) {
            cachedOffline = true;
            keepPageOffline();
          }
        } catch {
          // Web Crypto or the chunk missing (a very old browser, offline before the first load): the static QR stays.
        }
      }
      if (!stopped) timer = setTimeout(tick, 1000 - (Date.now() % 1000) + 10);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [live.secretHex, live.ticketRef]);

  if (!shown) {
    return (
      <span className="block">
        <span className="block" aria-hidden="true" dangerouslySetInnerHTML={{ __html: staticSvg }} />
        <span className={`mt-1 block text-center text-neutral-900 ${size === "full" ? "text-sm" : "text-xs"}`} data-testid="live-qr-fallback">
          Activá JavaScript para ver el código que cambia. Este código fijo vale en la puerta desde {live.staticFrom}.
        </span>
      </span>
    );
  }
  return (
    <span className="block" data-testid="live-qr" data-live-code={shown.code}>
      <span className="block" aria-hidden="true" dangerouslySetInnerHTML={{ __html: shown.svg }} />
      <span className={`mt-1 flex items-center justify-center gap-2 font-semibold text-neutral-900 ${size === "full" ? "text-base" : "text-xs"}`}>
        <span className="inline-block h-2.5 w-2.5 rounded-full bg-green-700 motion-safe:animate-pulse" aria-hidden="true" />
        <span>
          QR dinámico · cambia en <span className="tabular-nums">{secondsLeft}</span> s
        </span>
      </span>
      <span className="mt-1 block h-1.5 w-full overflow-hidden rounded-full bg-neutral-200" aria-hidden="true">
        <span className="block h-full rounded-full bg-green-700 motion-safe:transition-[width] motion-safe:duration-1000 motion-safe:ease-linear" style={{ width: `${(secondsLeft / PERIOD_SECONDS) * 100}%` }} />
      </span>
    </span>
  );
}
