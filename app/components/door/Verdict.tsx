import { Link } from "@remix-run/react";
import { useEffect } from "react";
import type { DoorOutcome } from "#common/door";

export interface VerdictView {
  outcome: DoorOutcome;
  title: string;
  detail: string;
  holderName: string | null;
  /** "DNI 30.123.456" for a named ticket (Entradas nominativas): staff ask for an ID that matches. */
  holderDocument?: string | null;
  ticketTypeName: string | null;
  /** "Platea · Fila F · Asiento 12" for a seated ticket (docs/seating.md): staff send the person to it. */
  seatLabel?: string | null;
  /** ticket (the door) or menu (the bar): at the bar the product served comes first. */
  productKind?: "ticket" | "menu" | null;
  /** The date the ticket is for ("21:00 - 20/12/2026"). */
  when?: string | null;
  /** Judged on this phone without the network (synced later). */
  offline?: boolean;
}

const VERDICT_COLORS: Record<DoorOutcome, string> = {
  admitted: "bg-green-700 text-white",
  already_in: "bg-red-700 text-white",
  conflict: "bg-amber-400 text-black",
  voided: "bg-red-700 text-white",
  other_event: "bg-red-700 text-white",
  other_date: "bg-red-700 text-white",
  wrong_place: "bg-red-700 text-white",
  expired_code: "bg-red-700 text-white",
  unknown: "bg-red-700 text-white",
};

/** A short buzz for "Adelante", a long double one for a refusal, where the phone allows it. */
export function useVerdictFeedback(verdict: VerdictView | null) {
  useEffect(() => {
    if (!verdict) return;
    const ok = verdict.outcome === "admitted";
    navigator.vibrate?.(ok ? 80 : [250, 120, 250]);
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      tone.frequency.value = ok ? 880 : 220;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + (ok ? 0.12 : 0.4));
      tone.onended = () => void audio.close();
    } catch {
      // No sound on this device: the screen says it all anyway.
    }
  }, [verdict]);
}

/** The full-screen answer a doorperson reads at arm's length. */
export function Verdict({ verdict, onNext, nextTo = "." }: { verdict: VerdictView; onNext?: () => void; nextTo?: string }) {
  const next = "mt-6 rounded-xl border-4 border-current px-8 py-4 text-xl font-black";
  return (
    <main role="alert" className={`fixed inset-0 z-50 flex min-h-screen flex-col items-center justify-center gap-4 overflow-auto px-6 py-10 text-center ${VERDICT_COLORS[verdict.outcome]}`}>
      <p className="text-6xl font-black leading-none sm:text-7xl">{verdict.title}</p>
      {verdict.outcome === "admitted" && verdict.productKind === "menu" ? (
        <>
          <p className="text-3xl font-bold">{verdict.ticketTypeName}</p>
          <p className="text-xl">{verdict.holderName}</p>
        </>
      ) : verdict.outcome === "admitted" ? (
        <>
          <p className="text-3xl font-bold">{verdict.holderName}</p>
          {verdict.holderDocument ? (
            <>
              <p className="text-3xl font-black tracking-wide">{verdict.holderDocument}</p>
              <p className="text-lg font-bold">Entrada nominativa: pedí el documento y fijate que coincida.</p>
            </>
          ) : null}
          <p className="text-xl">{verdict.ticketTypeName}</p>
          {verdict.seatLabel ? <p className="text-3xl font-black">{verdict.seatLabel}</p> : null}
          {verdict.when ? <p className="text-lg">{verdict.when}</p> : null}
        </>
      ) : (
        <p className="max-w-md text-xl font-bold">{verdict.detail}</p>
      )}
      {verdict.offline ? <p className="text-base font-bold">Sin conexión: se sincroniza al volver la red.</p> : null}
      {onNext ? (
        <button type="button" autoFocus onClick={onNext} className={next}>
          Escanear otra
        </button>
      ) : (
        // A link, not a form: without JavaScript the next scan starts from a fresh screen (and a fresh scan id).
        // `nextTo` keeps the screen's mode: "." alone would drop `?modo=barra` and send the bar to the door.
        <Link to={nextTo} autoFocus className={next}>
          Escanear otra
        </Link>
      )}
    </main>
  );
}
