import { Form, Link, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Button, buttonClasses } from "#app/components/ui/Button";
import type { QueuePageData } from "./types";
import { agoLabel, clockLeft, peopleLabel, waitLabel } from "./words";

/**
 * The server's clock, read in the browser: the page's "now" starts at the
 * server's answer (so the first paint and hydration agree) and then advances
 * with the phone's clock, corrected by how far the two were apart.
 */
function useServerClock(renderedAtIso: string) {
  const rendered = new Date(renderedAtIso).getTime();
  const [state, setState] = useState({ now: rendered, receivedAt: rendered, skew: 0, mounted: false });
  useEffect(() => {
    const skew = rendered - Date.now();
    setState({ now: rendered, receivedAt: rendered, skew, mounted: true });
    const timer = window.setInterval(() => setState((s) => ({ ...s, now: Date.now() + s.skew })), 1000);
    return () => window.clearInterval(timer);
  }, [rendered]);
  return { now: state.now, age: (state.now - state.receivedAt) / 1000, live: state.mounted };
}

/** What `/fila/{slug}/estado` answers (server/queue/poll.ts, decision 197). */
type PollAnswer = Pick<QueuePageData, "phase" | "drawSeed" | "refreshSeconds" | "renderedAtIso"> & {
  place: Pick<NonNullable<QueuePageData["place"]>, "status" | "closedReason" | "position" | "ahead" | "estimatedWaitSeconds"> | null;
};

/**
 * With JavaScript the page asks `/fila/{slug}/estado` at the interval the server suggested (a few hundred bytes
 * of JSON, served without Remix: decision 197), and at once when the countdown reaches the opening or the turn
 * runs out. It updates in place; when the answer needs the page (the turn came: its loader sets the admission
 * cookie; the sign-in must be refreshed; a place appeared or went away) it reloads the page. Without JavaScript
 * the `<meta http-equiv="refresh">` in the page reloads it at the same interval.
 */
function usePolling(page: QueuePageData, dueNow: boolean): { live: QueuePageData; refreshing: boolean } {
  const [live, setLive] = useState(page);
  const [refreshing, setRefreshing] = useState(false);
  const current = useRef(live);
  current.current = live;
  const busy = useRef(false);
  // A new answer from the loader (after joining, or a reload) starts over from it.
  useEffect(() => setLive(page), [page]);

  const poll = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setRefreshing(true);
    try {
      const res = await fetch(`/fila/${encodeURIComponent(current.current.event.slug)}/estado`, { cache: "no-store", headers: { accept: "application/json" } });
      const answer = (await res.json()) as PollAnswer | { reload: true };
      const shown = current.current;
      if (!res.ok || "reload" in answer || needsPage(shown, answer)) {
        window.location.reload();
        return;
      }
      setLive({
        ...shown,
        phase: answer.phase,
        drawSeed: answer.drawSeed,
        refreshSeconds: answer.refreshSeconds,
        renderedAtIso: answer.renderedAtIso,
        place: shown.place && answer.place ? { ...shown.place, ...answer.place, ...(answer.place.status === "ADMITTED" ? {} : { admissionExpiresAtIso: null, admissionExpiresLabel: null }) } : null,
      });
    } catch {
      // Offline for a moment: the next turn of the timer asks again.
    } finally {
      busy.current = false;
      setRefreshing(false);
    }
  }, []);

  const seconds = live.refreshSeconds;
  useEffect(() => {
    if (seconds === null) return;
    const timer = window.setInterval(() => void poll(), seconds * 1000);
    return () => window.clearInterval(timer);
  }, [seconds, poll]);
  useEffect(() => {
    if (dueNow) void poll();
  }, [dueNow, poll]);
  return { live, refreshing };
}

/** The turn came (the loader sets its cookie and the time to buy), or a place appeared or went away: reload the page. */
function needsPage(shown: QueuePageData, answer: PollAnswer): boolean {
  if ((shown.place === null) !== (answer.place === null)) return true;
  return answer.place?.status === "ADMITTED" && shown.place?.status !== "ADMITTED";
}

export function QueuePage({ page: loaded }: { page: QueuePageData }) {
  const [due, setDue] = useState(false);
  const { live: page, refreshing } = usePolling(loaded, due);
  const clock = useServerClock(page.renderedAtIso);
  const opensIn = (new Date(page.opensAtIso).getTime() - clock.now) / 1000;
  const expiresIn = page.place?.admissionExpiresAtIso ? (new Date(page.place.admissionExpiresAtIso).getTime() - clock.now) / 1000 : null;
  const dueNow = clock.live && ((page.phase === "before" && opensIn <= 0) || (expiresIn !== null && expiresIn <= 0));
  useEffect(() => setDue(dueNow), [dueNow]);

  return (
    <main className="mx-auto flex w-full max-w-xl flex-col gap-5 px-4 py-6">
      {/* Without JavaScript the page asks again by itself at the interval the server suggested. */}
      {page.refreshSeconds !== null ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(page.refreshSeconds)} />
        </noscript>
      ) : null}
      <header>
        <p className="text-sm font-bold uppercase tracking-wide text-[var(--muted)]">
          <a href="/" className="text-[var(--text)] underline underline-offset-2">
            Tribuna
          </a>{" "}
          · Fila virtual
        </p>
        <h1 className="text-2xl font-bold">{page.event.name}</h1>
      </header>

      <section aria-live="polite" aria-atomic="true" className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-5" data-queue-state={stateName(page)}>
        <QueueState page={page} opensIn={opensIn} expiresIn={expiresIn} />
      </section>

      {page.refreshSeconds !== null ? (
        <p className="text-sm text-[var(--muted)]" data-testid="queue-updated">
          {clock.live ? (
            <>
              {refreshing ? "Actualizando…" : `Actualizado ${agoLabel(clock.age)}`} · se actualiza sola cada {page.refreshSeconds} s.
            </>
          ) : (
            <>Esta página se actualiza sola cada {page.refreshSeconds} s: no hace falta recargarla.</>
          )}{" "}
          Si la cerrás no perdés tu lugar.
        </p>
      ) : null}

      <DrawProof page={page} />
    </main>
  );
}

/** A name for tests and styles: what the person is looking at. */
function stateName(page: QueuePageData): string {
  if (page.place) return page.place.status.toLowerCase();
  return page.phase === "before" ? "countdown" : page.phase === "soldOut" ? "sold_out" : page.phase === "closed" ? "closed" : "not_joined";
}

function QueueState({ page, opensIn, expiresIn }: { page: QueuePageData; opensIn: number; expiresIn: number | null }) {
  const { place } = page;
  if (place?.status === "ADMITTED") {
    return (
      <>
        <h2 className="text-2xl font-black text-green-700 dark:text-green-400">¡Es tu turno!</h2>
        <p className="mt-2">
          Tenés hasta las <strong>{place.admissionExpiresLabel}</strong> para comprar
          {expiresIn !== null && expiresIn > 0 ? (
            <>
              {" "}
              (te quedan{" "}
              <strong role="timer" aria-live="off" data-countdown="">
                {clockLeft(expiresIn)}
              </strong>
              )
            </>
          ) : null}
          . Si no comprás en ese tiempo, el lugar pasa a la persona que sigue.
        </p>
        <Link to={page.buyHref} className={buttonClasses("primary", "mt-4 w-full sm:w-auto")}>
          Ir a comprar
        </Link>
      </>
    );
  }
  if (place?.status === "SOLD_OUT" || page.phase === "soldOut") {
    return (
      <>
        <h2 className="text-2xl font-black">Agotado</h2>
        <p className="mt-2">
          Se vendieron todas las entradas que había. Te lo decimos ahora para que no esperes de más. Si alguien no completa su pago y vuelven entradas a
          la venta, la fila sigue y te avisamos en esta página.
        </p>
      </>
    );
  }
  if (place?.closedReason === "BOUGHT") {
    return (
      <>
        <h2 className="text-xl font-bold">Ya hiciste tu compra</h2>
        <p className="mt-2">Tu turno en la fila terminó. Tus entradas están en Mis tickets.</p>
        <Link to="/cuenta/mis-tickets" className={buttonClasses("secondary", "mt-4")}>
          Ver mis tickets
        </Link>
      </>
    );
  }
  if (place?.closedReason === "EXPIRED" && page.phase !== "closed") {
    return (
      <>
        <h2 className="text-xl font-bold">Tu turno venció</h2>
        <p className="mt-2">Pasó el tiempo para comprar sin que se completara una compra, y el lugar pasó a la persona que seguía en la fila.</p>
      </>
    );
  }
  if (place?.status === "CLOSED" || page.phase === "closed") {
    return (
      <>
        <h2 className="text-xl font-bold">La fila está cerrada</h2>
        <p className="mt-2">Ya no hace falta hacer fila para este evento: podés comprar directamente en su página.</p>
        <Link to={page.buyHref} className={buttonClasses("secondary", "mt-4")}>
          Ir al evento
        </Link>
      </>
    );
  }
  if (page.phase === "before") {
    return (
      <>
        <h2 className="text-xl font-bold">La venta abre en</h2>
        <p className="mt-1 text-4xl font-black tabular-nums" role="timer" aria-live="off" data-countdown="">
          {opensIn > 0 ? clockLeft(opensIn) : "instantes"}
        </p>
        <p className="mt-2 text-sm">
          {page.opensAtLabel} (hora de Buenos Aires).
        </p>
        {place ? (
          <p className="mt-4 font-medium">
            Ya estás en la fila. Cuando abra la venta sorteamos el orden entre todas las personas que se sumaron antes: llegar primero no cambia nada, así que
            no hace falta estar pendiente del segundo exacto.
          </p>
        ) : (
          <>
            <p className="mt-4">Sumate antes de que abra: a la hora de apertura sorteamos el orden entre todas las personas que estén en la fila.</p>
            <JoinForm page={page} label="Sumarme a la fila" />
          </>
        )}
      </>
    );
  }
  if (!place) {
    return (
      <>
        <h2 className="text-xl font-bold">La venta ya abrió</h2>
        <p className="mt-2">Sumate a la fila: vas detrás de las personas que ya están, por orden de llegada.</p>
        <JoinForm page={page} label="Sumarme a la fila" />
      </>
    );
  }
  return (
    <>
      <h2 className="text-xl font-bold">{page.phase === "paused" ? "El ingreso está en pausa" : "Estás en la fila"}</h2>
      {page.phase === "paused" ? <p className="mt-1">La organización pausó el ingreso por un momento. No perdés tu lugar.</p> : null}
      <dl className="mt-3 grid grid-cols-2 gap-3">
        <Figure label="Tu lugar">{place.position !== null ? place.position.toLocaleString("es-AR") : "—"}</Figure>
        <Figure label="Delante tuyo">{place.ahead !== null ? peopleLabel(place.ahead) : "—"}</Figure>
      </dl>
      <p className="mt-3">
        <span className="font-medium">Espera estimada:</span> {waitLabel(page.phase === "paused" ? null : place.estimatedWaitSeconds)}
      </p>
      <p className="mt-2 text-sm text-[var(--muted)]">Es una estimación según el ritmo con que entra la gente; puede cambiar si alguien no usa su turno.</p>
    </>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-[var(--border)] p-3">
      <dt className="text-sm text-[var(--muted)]">{label}</dt>
      <dd className="text-3xl font-black tabular-nums">{children}</dd>
    </div>
  );
}

function JoinForm({ page, label }: { page: QueuePageData; label: string }) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="mt-4 flex flex-col gap-2">
      <Button type="submit" className="w-full sm:w-auto" pending={navigation.state === "submitting"} pendingLabel="Sumándote…">
        {label}
      </Button>
      {page.signedIn ? null : <p className="text-sm text-[var(--muted)]">Necesitás iniciar sesión: un lugar por cuenta, sin importar desde cuántos dispositivos entres.</p>}
    </Form>
  );
}

/** The commitment before the opening, the seed after it, and how anyone checks the order with them. */
function DrawProof({ page }: { page: QueuePageData }) {
  if (!page.drawCommitment && !page.drawSeed) return null;
  return (
    <details className="rounded-2xl border border-[var(--border)] p-4 text-sm">
      <summary className="cursor-pointer font-bold">¿Cómo sabés que el sorteo es justo?</summary>
      <div className="mt-2 flex flex-col gap-2">
        <p>
          Antes de abrir publicamos la huella (SHA-256) de una semilla secreta; al abrir revelamos la semilla y el orden de quienes se sumaron antes sale
          de ella: nadie, ni nosotros, puede cambiarla después sin que se note.
        </p>
        {page.drawCommitment ? (
          <p>
            Huella publicada: <code className="break-all" data-testid="draw-commitment">{page.drawCommitment}</code>
          </p>
        ) : null}
        {page.place ? (
          <p>
            Tu lugar en el sorteo: <code className="break-all">{page.place.id}</code>
          </p>
        ) : null}
        {page.drawSeed ? (
          <p>
            Semilla revelada: <code className="break-all" data-testid="draw-seed">{page.drawSeed}</code>
          </p>
        ) : (
          <p>La semilla se revela cuando abre la venta.</p>
        )}
        <p>
          <Link to="/ayuda#fila-virtual" className="text-[var(--accent)] underline underline-offset-2">
            Cómo verificar el sorteo paso a paso
          </Link>
        </p>
      </div>
    </details>
  );
}
