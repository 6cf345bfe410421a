import { Form, Link, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Button, buttonClasses } from "#app/components/ui/Button";
import type { QueuePageData } from "./types";
import { agoLabel, clockLeft, peopleLabel, QUEUE_WORDS, queueNumber, queueStateKind, queueStateName, refreshesEvery, waitLabel } from "./words";

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
      {/* Without JavaScript the page asks again by itself at the interval the server suggested: a person with a place
          goes on with the light page served without Remix (decision 241), anyone else with this one. */}
      {page.refreshSeconds !== null ? (
        <noscript>
          <meta httpEquiv="refresh" content={page.refreshHref ? `${page.refreshSeconds};url=${page.refreshHref}` : String(page.refreshSeconds)} />
        </noscript>
      ) : null}
      <header>
        <p className="text-sm font-bold uppercase tracking-wide text-[var(--muted)]">
          <a href="/" className="text-[var(--text)] underline underline-offset-2">
            Tribuna
          </a>{" "}
          · {QUEUE_WORDS.kicker}
        </p>
        <h1 className="text-2xl font-bold">{page.event.name}</h1>
      </header>

      <section aria-live="polite" aria-atomic="true" className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-5" data-queue-state={queueStateName(page.phase, page.place)}>
        <QueueState page={page} opensIn={opensIn} expiresIn={expiresIn} />
      </section>

      {page.refreshSeconds !== null ? (
        <p className="text-sm text-[var(--muted)]" data-testid="queue-updated">
          {clock.live ? (
            <>
              {refreshing ? "Actualizando…" : `Actualizado ${agoLabel(clock.age)}`} · {refreshesEvery(page.refreshSeconds)}.
            </>
          ) : (
            <>Esta página se actualiza sola cada {page.refreshSeconds} s: no hace falta recargarla.</>
          )}{" "}
          {QUEUE_WORDS.keepPlace}
        </p>
      ) : null}

      <DrawProof page={page} />
    </main>
  );
}

function QueueState({ page, opensIn, expiresIn }: { page: QueuePageData; opensIn: number; expiresIn: number | null }) {
  const { place } = page;
  const W = QUEUE_WORDS;
  switch (queueStateKind(page.phase, place)) {
    case "admitted":
      return (
        <>
          <h2 className="text-2xl font-black text-green-700 dark:text-green-400">{W.turn.heading}</h2>
          <p className="mt-2">
            {W.turn.untilBefore} <strong>{place!.admissionExpiresLabel}</strong> {W.turn.untilAfter}
            {expiresIn !== null && expiresIn > 0 ? (
              <>
                {" "}
                ({W.turn.leftBefore}{" "}
                <strong role="timer" aria-live="off" data-countdown="">
                  {clockLeft(expiresIn)}
                </strong>
                )
              </>
            ) : null}
            {W.turn.rest}
          </p>
          <Link to={page.buyHref} className={buttonClasses("primary", "mt-4 w-full sm:w-auto")}>
            {W.turn.buy}
          </Link>
        </>
      );
    case "soldOut":
      return (
        <>
          <h2 className="text-2xl font-black">{W.soldOut.heading}</h2>
          <p className="mt-2">{W.soldOut.text}</p>
        </>
      );
    case "bought":
      return (
        <>
          <h2 className="text-xl font-bold">{W.bought.heading}</h2>
          <p className="mt-2">{W.bought.text}</p>
          <Link to="/cuenta/mis-tickets" className={buttonClasses("secondary", "mt-4")}>
            {W.bought.link}
          </Link>
        </>
      );
    case "expired":
      return (
        <>
          <h2 className="text-xl font-bold">{W.expired.heading}</h2>
          <p className="mt-2">{W.expired.text}</p>
        </>
      );
    case "closed":
      return (
        <>
          <h2 className="text-xl font-bold">{W.closed.heading}</h2>
          <p className="mt-2">{W.closed.text}</p>
          <Link to={page.buyHref} className={buttonClasses("secondary", "mt-4")}>
            {W.closed.link}
          </Link>
        </>
      );
    case "before":
      return (
        <>
          <h2 className="text-xl font-bold">{W.before.heading}</h2>
          <p className="mt-1 text-4xl font-black tabular-nums" role="timer" aria-live="off" data-countdown="">
            {opensIn > 0 ? clockLeft(opensIn) : W.before.soon}
          </p>
          <p className="mt-2 text-sm">
            {page.opensAtLabel} {W.before.timeZone}
          </p>
          {place ? (
            <p className="mt-4 font-medium">{W.before.inQueue}</p>
          ) : (
            <>
              <p className="mt-4">{W.before.joinFirst}</p>
              <JoinForm page={page} label={W.join.label} />
            </>
          )}
        </>
      );
    case "notJoined":
      return (
        <>
          <h2 className="text-xl font-bold">{W.notJoined.heading}</h2>
          <p className="mt-2">{W.notJoined.text}</p>
          <JoinForm page={page} label={W.join.label} />
        </>
      );
    case "waiting":
      return (
        <>
          <h2 className="text-xl font-bold">{page.phase === "paused" ? W.waiting.pausedHeading : W.waiting.heading}</h2>
          {page.phase === "paused" ? <p className="mt-1">{W.waiting.paused}</p> : null}
          <dl className="mt-3 grid grid-cols-2 gap-3">
            <Figure label={W.waiting.position}>{place!.position !== null ? queueNumber(place!.position) : "—"}</Figure>
            <Figure label={W.waiting.ahead}>{place!.ahead !== null ? peopleLabel(place!.ahead) : "—"}</Figure>
          </dl>
          <p className="mt-3">
            <span className="font-medium">{W.waiting.estimate}</span> {waitLabel(page.phase === "paused" ? null : place!.estimatedWaitSeconds)}
          </p>
          <p className="mt-2 text-sm text-[var(--muted)]">{W.waiting.estimateNote}</p>
        </>
      );
  }
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
      <Button type="submit" className="w-full sm:w-auto" pending={navigation.state === "submitting"} pendingLabel={QUEUE_WORDS.join.pending}>
        {label}
      </Button>
      {page.signedIn ? null : <p className="text-sm text-[var(--muted)]">{QUEUE_WORDS.join.signIn}</p>}
    </Form>
  );
}

/** The commitment before the opening, the seed after it, and how anyone checks the order with them. */
function DrawProof({ page }: { page: QueuePageData }) {
  if (!page.drawCommitment && !page.drawSeed) return null;
  const P = QUEUE_WORDS.proof;
  return (
    <details className="rounded-2xl border border-[var(--border)] p-4 text-sm">
      <summary className="cursor-pointer font-bold">{P.summary}</summary>
      <div className="mt-2 flex flex-col gap-2">
        <p>{P.text}</p>
        {page.drawCommitment ? (
          <p>
            {P.commitment} <code className="break-all" data-testid="draw-commitment">{page.drawCommitment}</code>
          </p>
        ) : null}
        {page.place ? (
          <p>
            {P.place} <code className="break-all">{page.place.id}</code>
          </p>
        ) : null}
        {page.drawSeed ? (
          <p>
            {P.seed} <code className="break-all" data-testid="draw-seed">{page.drawSeed}</code>
          </p>
        ) : (
          <p>{P.seedLater}</p>
        )}
        <p>
          <Link to="/ayuda#fila-virtual" className="text-[var(--accent)] underline underline-offset-2">
            {P.howTo}
          </Link>
        </p>
      </div>
    </details>
  );
}
