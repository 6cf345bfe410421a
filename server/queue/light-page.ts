import type { IncomingMessage, ServerResponse } from "node:http";
import { buttonClasses, TEST_MODE_BANNER } from "#common/button-classes";
import { formatEventStart, formatTime, TIME_ZONE } from "#common/dates";
import { clockLeft, peopleLabel, QUEUE_WORDS, queueNumber, queueStateKind, queueStateName, refreshesEvery, waitLabel } from "#common/queue-words";
import { parseCookies } from "#server/auth/cookies";
import { getDb } from "#server/db/client";
import { escapeHtml } from "#server/email/templates";
import { admissionCookieHeader } from "./admission";
import { queueMemory } from "./memory";
import { QUEUE_LIGHT_PATH } from "./poll-path";
import { pollActor, queuePhase, queueRefreshSeconds } from "./poll";
import { placeView, queueInfoOf, type QueueInfoView, type QueuePlaceView } from "./queue";

/**
 * `GET /fila/{slug}/ahora`: the waiting person's page for a browser without
 * JavaScript (decision 241). The full page `/fila/{slug}` refreshes itself
 * here (its `<noscript>` meta refresh), and this one refreshes itself at the
 * domain's `refreshSeconds`: a few kilobytes of HTML written from a template,
 * served from Node's request event like `/fila/{slug}/estado` (server.ts,
 * decisions 197 and 204), with no Remix and no PostgreSQL for a waiting person:
 * who asks comes from the access token cookie and the session cache, the queue
 * from this process's copy in memory.
 *
 * The same words as the full page (#common/queue-words) and the app's own
 * stylesheet, so it looks like it in both themes. When only the full page can
 * help (the access token expired, no place, no queue) it redirects there (303):
 * its loader refreshes the tokens, offers to join, or sends to the event.
 * When the turn comes it sets the admission cookie through the same function
 * as the full page's loader (`admissionCookieHeader` with the place's grant).
 */

export interface LightPageOptions {
  /** The app's stylesheets (the Remix build's manifest: `stylesheetsOf`). */
  stylesheets: string[];
  /** Payments are simulated: every page says so (app/components/layout/TestModeBanner.tsx). */
  testMode?: boolean;
}

export type LightPageAnswer = { status: number; headers: Record<string, string | string[]>; body: string };

/** The CSS the Remix build links from every page (root's and the entry's), from its manifest; server.ts reads it once at startup. */
export function stylesheetsOf(build: unknown): string[] {
  const assets = (build as { assets?: { entry?: { css?: string[] }; routes?: Record<string, { css?: string[] } | undefined> } } | undefined)?.assets;
  return [...new Set([...(assets?.entry?.css ?? []), ...(assets?.routes?.root?.css ?? [])])];
}

/** No scripts at all; styles, fonts and the icon from here; forms only here; never framed. */
const POLICY = "default-src 'none'; style-src 'self'; font-src 'self' data:; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The app's buttons (common/button-classes.ts), compiled into its CSS. */
const PRIMARY = buttonClasses("primary");
const SECONDARY = buttonClasses("secondary");

/** "15:04:09", Buenos Aires time. */
const CLOCK = new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });

/** The `theme` cookie as root.tsx reads it (app/lib/theme.ts): dark unless it says light or system (`system` follows the device in CSS). */
function themeOf(value: string | undefined): "dark" | "light" | "system" {
  return value === "light" || value === "system" ? value : "dark";
}

/** Escaped text; the fixed sentences (most of the page) are escaped once and remembered. */
const escapedWords = new Map<string, string>();
function esc(text: string): string {
  let out = escapedWords.get(text);
  if (out === undefined) {
    out = escapeHtml(text);
    if (escapedWords.size < 500) escapedWords.set(text, out);
  }
  return out;
}

const fullPath = (slug: string) => `/fila/${encodeURIComponent(slug)}`;
const redirectTo = (slug: string): LightPageAnswer => ({ status: 303, headers: { Location: fullPath(slug), "Cache-Control": "no-store" }, body: "" });

export async function queueLightAnswer(cookieHeader: string | null | undefined, slug: string, options: LightPageOptions, now = new Date()): Promise<LightPageAnswer> {
  const key = slug.toLowerCase();
  const actor = await pollActor(cookieHeader, now);
  // Not signed in, or only the full page can renew the sign-in: there, where the tokens are refreshed and joining is offered.
  if (actor === "reload" || actor.kind !== "user") return redirectTo(key);
  const held = queueMemory.peekBySlug(key, now.getTime());
  const state = held === undefined ? await queueMemory.bySlug(await getDb(), key) : held;
  if (!state) return redirectTo(key);
  const entry = state.places.byUser(actor.userId);
  if (!entry) return redirectTo(key);
  const info = queueInfoOf(state, now);
  const place = placeView(state, entry, now);
  const headers: LightPageAnswer["headers"] = {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "private, no-store",
    "Content-Security-Policy": POLICY,
  };
  // The turn's grant travels as a cookie, exactly as the full page's loader sets it (docs/queue.md).
  if (place.grant) headers["Set-Cookie"] = [admissionCookieHeader(place.grant, now)];
  const theme = themeOf(parseCookies(cookieHeader ?? null).theme);
  return { status: 200, headers, body: lightPageHtml(info, place, { ...options, theme, now }) };
}

/**
 * The parts of the page that are the same for everyone waiting for an event with the same theme and refresh (the head,
 * the header) or the same draw (the proof around the place's id): built once, then joined with each person's state.
 * A crowd asks thousands of times a second; a bounded memory (an event's name or draw changes rarely).
 */
const pieces = new Map<string, string>();
function piece(key: string, build: () => string): string {
  let out = pieces.get(key);
  if (out === undefined) {
    out = build();
    if (pieces.size >= 2000) pieces.clear();
    pieces.set(key, out);
  }
  return out;
}

/** "Actualizado a las 15:04:09": the same text for a whole second. */
let clock = { second: NaN, text: "" };
function clockText(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (clock.second !== second) clock = { second, text: CLOCK.format(now) };
  return clock.text;
}

function lightPageHtml(info: QueueInfoView, place: QueuePlaceView, o: LightPageOptions & { theme: string; now: Date }): string {
  const phase = queuePhase(info);
  const refresh = queueRefreshSeconds(info, place);
  const W = QUEUE_WORDS;
  const top = piece(`top|${o.theme}|${refresh}|${o.testMode ? 1 : 0}|${o.stylesheets.join(" ")}|${info.eventName}`, () => {
    const name = esc(info.eventName);
    return `<!DOCTYPE html>
<html lang="es-AR" class="${o.theme}" data-theme="${o.theme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${
      refresh !== null ? `<meta http-equiv="refresh" content="${refresh}">` : ""
    }<title>${esc(`Fila virtual: ${info.eventName} · Tribuna`)}</title><meta name="robots" content="noindex"><link rel="icon" href="/favicon.svg" type="image/svg+xml">${o.stylesheets
      .map((href) => `<link rel="stylesheet" href="${esc(href)}">`)
      .join("")}</head>
<body class="min-h-screen antialiased">${
      o.testMode ? `<p role="note" class="${TEST_MODE_BANNER.className}">${TEST_MODE_BANNER.text}</p>` : ""
    }
<main class="mx-auto flex w-full max-w-xl flex-col gap-5 px-4 py-6">
<header><p class="text-sm font-bold uppercase tracking-wide text-[var(--muted)]"><a href="/" class="text-[var(--text)] underline underline-offset-2">Tribuna</a> · ${esc(W.kicker)}</p><h1 class="text-2xl font-bold">${name}</h1></header>
<section role="status" aria-labelledby="estado-fila" class="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-5" data-queue-state="`;
  });
  const updated = piece(`updated|${refresh}`, () => `${refresh !== null ? ` · ${esc(refreshesEvery(refresh))}.` : "."} ${esc(W.keepPlace)}</p>\n`);
  return `${top}${queueStateName(phase, place)}">
${stateHtml(info, place, o.now)}
</section>
<p class="text-sm text-[var(--muted)]" data-testid="queue-updated">${esc(W.light.updatedAt)} ${clockText(o.now)}${updated}${proofHtml(info, place)}
<p class="text-sm"><a href="${fullPath(info.eventSlug)}" class="text-[var(--accent)] underline underline-offset-2">${esc(W.light.fullPage)}</a></p>
</main>
</body></html>`;
}

function stateHtml(info: QueueInfoView, place: QueuePlaceView, now: Date): string {
  const W = QUEUE_WORDS;
  const heading = (text: string, cls = "text-xl font-bold") => `<h2 id="estado-fila" class="${cls}">${esc(text)}</h2>`;
  const para = (text: string, cls = "mt-2") => `<p class="${cls}">${esc(text)}</p>`;
  const buyHref = `/eventos/${encodeURIComponent(info.eventSlug)}`;
  const phase = queuePhase(info);
  switch (queueStateKind(phase, place)) {
    case "admitted": {
      const expires = place.admissionExpiresAt;
      const left = expires ? (expires.getTime() - now.getTime()) / 1000 : 0;
      return `${heading(W.turn.heading, "text-2xl font-black text-green-700 dark:text-green-400")}
<p class="mt-2">${esc(W.turn.untilBefore)} <strong>${expires ? formatTime(expires) : ""}</strong> ${esc(W.turn.untilAfter)}${left > 0 ? ` (${esc(W.turn.leftBefore)} <strong>${clockLeft(left)}</strong>)` : ""}${esc(W.turn.rest)}</p>
<a href="${buyHref}" class="${PRIMARY} mt-4 w-full sm:w-auto">${esc(W.turn.buy)}</a>`;
    }
    case "soldOut":
      return `${heading(W.soldOut.heading, "text-2xl font-black")}\n${para(W.soldOut.text)}`;
    case "bought":
      return `${heading(W.bought.heading)}\n${para(W.bought.text)}\n<a href="/cuenta/mis-tickets" class="${SECONDARY} mt-4">${esc(W.bought.link)}</a>`;
    case "expired":
      return `${heading(W.expired.heading)}\n${para(W.expired.text)}`;
    case "closed":
      return `${heading(W.closed.heading)}\n${para(W.closed.text)}\n<a href="${buyHref}" class="${SECONDARY} mt-4">${esc(W.closed.link)}</a>`;
    case "before": {
      const opensIn = (info.opensAt.getTime() - now.getTime()) / 1000;
      return `${heading(W.before.heading)}
<p class="mt-1 text-4xl font-black tabular-nums">${esc(opensIn > 0 ? clockLeft(opensIn) : W.before.soon)}</p>
<p class="mt-2 text-sm">${esc(formatEventStart(info.opensAt))} ${esc(W.before.timeZone)}</p>
${para(W.before.inQueue, "mt-4 font-medium")}`;
    }
    // A place always exists here (the page redirects without one); the full page's wording for safety.
    case "notJoined":
      return `${heading(W.notJoined.heading)}\n${para(W.notJoined.text)}`;
    case "waiting": {
      const paused = phase === "paused";
      const figure = (label: string, value: string) =>
        `<div class="rounded-xl border border-[var(--border)] p-3"><dt class="text-sm text-[var(--muted)]">${esc(label)}</dt><dd class="text-3xl font-black tabular-nums">${esc(value)}</dd></div>`;
      return `${heading(paused ? W.waiting.pausedHeading : W.waiting.heading)}
${paused ? para(W.waiting.paused, "mt-1") : ""}
<dl class="mt-3 grid grid-cols-2 gap-3">${figure(W.waiting.position, place.position !== null ? queueNumber(place.position) : "—")}${figure(
        W.waiting.ahead,
        place.ahead !== null ? peopleLabel(place.ahead) : "—",
      )}</dl>
<p class="mt-3"><span class="font-medium">${esc(W.waiting.estimate)}</span> ${esc(waitLabel(paused ? null : place.estimatedWaitSeconds))}</p>
${para(W.waiting.estimateNote, "mt-2 text-sm text-[var(--muted)]")}`;
    }
  }
}

/** The commitment before the opening, the seed after it, and how anyone checks the order with them (as the full page). */
function proofHtml(info: QueueInfoView, place: QueuePlaceView): string {
  if (!info.drawCommitment && !info.drawSeed) return "";
  const P = QUEUE_WORDS.proof;
  const code = (text: string, testId?: string) => `<code class="break-all"${testId ? ` data-testid="${testId}"` : ""}>${esc(text)}</code>`;
  const before = piece(
    `proof|${info.drawCommitment}`,
    () =>
      `<details class="rounded-2xl border border-[var(--border)] p-4 text-sm"><summary class="cursor-pointer font-bold">${esc(P.summary)}</summary><div class="mt-2 flex flex-col gap-2">
<p>${esc(P.text)}</p>${info.drawCommitment ? `<p>${esc(P.commitment)} ${code(info.drawCommitment, "draw-commitment")}</p>` : ""}<p>${esc(P.place)} `,
  );
  const after = piece(
    `seed|${info.drawSeed}`,
    () =>
      `</p>${info.drawSeed ? `<p>${esc(P.seed)} ${code(info.drawSeed, "draw-seed")}</p>` : `<p>${esc(P.seedLater)}</p>`}<p><a href="/ayuda#fila-virtual" class="text-[var(--accent)] underline underline-offset-2">${esc(
        P.howTo,
      )}</a></p></div></details>`,
  );
  return `${before}${code(place.id)}${after}`;
}

/** The same answer as a Node listener (server.ts, after the usual guards). Anything but GET or HEAD is refused. */
export function queueLightListener(options: LightPageOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const slug = QUEUE_LIGHT_PATH.exec(req.url ?? "")?.[1];
    let answer: LightPageAnswer;
    if (req.method !== "GET" && req.method !== "HEAD") {
      answer = { status: 405, headers: { Allow: "GET, HEAD", "Cache-Control": "no-store" }, body: "" };
    } else {
      let decoded: string | null = null;
      try {
        decoded = slug ? decodeURIComponent(slug) : null;
      } catch {
        decoded = null;
      }
      answer = decoded ? await queueLightAnswer(req.headers.cookie, decoded, options) : { status: 404, headers: { "Cache-Control": "no-store" }, body: "" };
    }
    res.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    res.setHeader("Content-Length", Buffer.byteLength(answer.body));
    res.end(req.method === "HEAD" ? undefined : answer.body);
  };
}
