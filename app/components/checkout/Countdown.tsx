import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { purchaseWords, type PurchaseKind } from "#common/order-words";

/** Where to choose again: the event page for tickets, the menu for consumiciones. */
const CHOOSE_AGAIN: Record<PurchaseKind, string> = {
  ticket: "Elegilas de nuevo en la página del evento",
  menu: "Elegilas de nuevo en el menú",
  mixed: "Elegilas de nuevo en la página del evento",
};

/**
 * The hold's countdown. The server renders "Tu reserva vence a las HH:mm"
 * (enough without JavaScript); in the browser a small island counts down
 * the minutes and seconds left and says when the hold is over.
 */
export function HoldCountdown({ expiresAtIso, timeLabel, eventHref, kind = "ticket" }: { expiresAtIso: string; timeLabel: string; eventHref: string; kind?: PurchaseKind }) {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    const end = new Date(expiresAtIso).getTime();
    const tick = () => setLeft(Math.max(0, Math.round((end - Date.now()) / 1000)));
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [expiresAtIso]);

  if (left === 0) return <HoldExpired eventHref={eventHref} kind={kind} />;
  const clock =
    left === null
      ? null
      : left >= 3600
        ? `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min`
        : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  return (
    <p role="timer" aria-live="off" data-hold-expires={expiresAtIso} className="rounded-lg border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm">
      Tu reserva vence a las <strong>{timeLabel}</strong>
      {clock ? (
        <>
          {" "}
          (te quedan <strong data-countdown="">{clock}</strong>)
        </>
      ) : null}
      . Pasado ese momento {purchaseWords(kind).the} vuelven a la venta.
    </p>
  );
}

export function HoldExpired({ eventHref, kind = "ticket" }: { eventHref: string; kind?: PurchaseKind }) {
  const the = purchaseWords(kind).the;
  return (
    <div role="alert" className="rounded-lg border border-red-500 bg-red-50 px-4 py-3 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-100">
      <p className="font-bold">Tu reserva venció</p>
      <p className="mt-1">
        {the.charAt(0).toUpperCase()}
        {the.slice(1)} volvieron a la venta.{" "}
        <Link to={eventHref} className="underline">
          {CHOOSE_AGAIN[kind]}
        </Link>
        .
      </p>
    </div>
  );
}
