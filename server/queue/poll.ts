import type { IncomingMessage, ServerResponse } from "node:http";
import type { Actor } from "#server/context";
import { ANONYMOUS } from "#server/context";
import { getDb } from "#server/db/client";
import { ACCESS_COOKIE, REFRESH_COOKIE, parseCookies } from "#server/auth/cookies";
import { isSessionActive } from "#server/auth/sessions";
import { sessionCache } from "#server/auth/session-cache";
import { verifyAccessTokenCached } from "#server/auth/access-cache";
import { QUEUE_POLL_PATH } from "./poll-path";
import { queueMemory, type QueueState } from "./memory";
import { placeView, queueInfoOf, type QueueInfoView, type QueuePlaceView } from "./queue";

/**
 * `GET /fila/{slug}/estado`: what the queue page's script asks every few
 * seconds (decision 197). Served from Node's request event (server.ts, like
 * GraphQL) with no Remix and no PostgreSQL for a waiting person: the access
 * token's signature, the session cache (decision 196) and this process's copy
 * of the queue (./memory.ts). A few hundred bytes of JSON, never cached.
 *
 * When the answer needs the page (the access token expired or went stale, the
 * event has no queue), it says `{"reload":true}` and the script reloads the
 * page, whose loader refreshes the tokens or redirects.
 */

export type QueuePhase = "before" | "open" | "paused" | "soldOut" | "closed";

export function queuePhase(info: QueueInfoView): QueuePhase {
  return !info.enabled ? "closed" : info.soldOut ? "soldOut" : !info.open ? "before" : info.paused ? "paused" : "open";
}

/** How soon the page asks again (null: nothing will change). */
export function queueRefreshSeconds(info: QueueInfoView, place: QueuePlaceView | null): number | null {
  return queuePhase(info) === "closed" || place?.status === "CLOSED" ? null : (place?.refreshSeconds ?? info.refreshSeconds);
}

export interface QueuePollState {
  phase: QueuePhase;
  place: Pick<QueuePlaceView, "status" | "closedReason" | "position" | "ahead" | "estimatedWaitSeconds"> | null;
  drawSeed: string | null;
  refreshSeconds: number | null;
  /** When the server answered (ISO), for "actualizado hace X s". */
  renderedAtIso: string;
}

export type QueuePollAnswer = { status: number; body: QueuePollState | { reload: true } };

const RELOAD = { reload: true } as const;

/**
 * Who asks, from the access token cookie only; "reload" when only the page can tell (or fix) who it is. A
 * remembered token and a remembered session (the usual poll) cost no database and no wait for it.
 */
export async function pollActor(cookieHeader: string | null | undefined, now: Date): Promise<Actor | "reload"> {
  const cookies = parseCookies(cookieHeader ?? null);
  const accessToken = cookies[ACCESS_COOKIE];
  if (!accessToken) return cookies[REFRESH_COOKIE] ? "reload" : ANONYMOUS;
  const check = await verifyAccessTokenCached(accessToken, now);
  if (!check.ok) return "reload";
  const { sid } = check.claims;
  if (!sessionCache.isActive(sid, now.getTime()) && !(await isSessionActive(await getDb(), sid, now))) return "reload";
  return { kind: "user", userId: check.claims.sub, email: check.claims.email, roles: check.claims.roles, sessionId: sid };
}

export async function queuePollAnswer(cookieHeader: string | null | undefined, slug: string, now = new Date()): Promise<QueuePollAnswer> {
  const actor = await pollActor(cookieHeader, now);
  if (actor === "reload") return { status: 401, body: RELOAD };
  const key = slug.toLowerCase();
  // This process's copy when it holds it (decision 204); the first poll of a queue may load it.
  const held = queueMemory.peekBySlug(key, now.getTime());
  const state = held === undefined ? await queueMemory.bySlug(await getDb(), key) : held;
  return answerFrom(state, actor, now);
}

function answerFrom(state: QueueState | null, actor: Actor, now: Date): QueuePollAnswer {
  if (!state) return { status: 404, body: RELOAD };
  const info = queueInfoOf(state, now);
  const entry = actor.kind === "user" ? state.places.byUser(actor.userId) : undefined;
  const place = entry ? placeView(state, entry, now) : null;
  return {
    status: 200,
    body: {
      phase: queuePhase(info),
      place: place ? { status: place.status, closedReason: place.closedReason, position: place.position, ahead: place.ahead, estimatedWaitSeconds: place.estimatedWaitSeconds } : null,
      drawSeed: info.drawSeed,
      refreshSeconds: queueRefreshSeconds(info, place),
      renderedAtIso: now.toISOString(),
    },
  };
}

/** The same answer as a Node listener (server.ts, after the usual guards). Anything but GET or HEAD is refused. */
export async function queuePollListener(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const slug = QUEUE_POLL_PATH.exec(req.url ?? "")?.[1];
  let answer: QueuePollAnswer;
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("Allow", "GET, HEAD");
    answer = { status: 405, body: RELOAD };
  } else {
    let decoded: string | null = null;
    try {
      decoded = slug ? decodeURIComponent(slug) : null;
    } catch {
      decoded = null;
    }
    answer = decoded ? await queuePollAnswer(req.headers.cookie, decoded) : { status: 404, body: RELOAD };
  }
  const body = JSON.stringify(answer.body);
  res.statusCode = answer.status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(req.method === "HEAD" ? undefined : body);
}
