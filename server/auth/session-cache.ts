import type { DbOrTx } from "#server/db/client";
import { defineChannel, onMissedNotifications } from "#server/db/notify";

/**
 * "Session sid is active until T", kept in each process (decision 196), so a
 * signed-in request does not read its session from PostgreSQL every time
 * (a crowd refreshing the virtual queue every few seconds, docs/queue.md).
 *
 * - Only good news is kept: a revoked or unknown session is asked again.
 * - An entry lasts at most TTL_MS (a safety net if a notification was lost),
 *   and never past the session's own expiry.
 * - Every revocation publishes on the `sessions` channel (server/db/notify.ts,
 *   decision 166): the revoking process forgets at once, the others when they
 *   hear it (milliseconds); after a dropped listener every process forgets all.
 * - Bounded by count: past MAX_ENTRIES the oldest entries go first.
 */

export const SESSION_CACHE_TTL_MS = 30_000;
export const SESSION_CACHE_MAX_ENTRIES = 50_000;

/**
 * A sign-in (its family) or every sign-in of a user ended. `scope` is
 * "family" or "user"; `id` is the family's or the user's id.
 */
export const sessionRevocations = defineChannel("sessions", ["scope", "id"]);
export type RevocationScope = "family" | "user";

interface Entry {
  until: number;
  userId: string;
  familyId: string;
}

export class SessionCache {
  private entries = new Map<string, Entry>();
  // A family or a user with one session (nearly all) keeps that session's id, not a Set of one (decision 205).
  private byFamily = new Map<string, Sids>();
  private byUser = new Map<string, Sids>();
  private stops: (() => void)[];

  constructor(
    private readonly ttlMs = SESSION_CACHE_TTL_MS,
    private readonly maxEntries = SESSION_CACHE_MAX_ENTRIES,
  ) {
    this.stops = [sessionRevocations.subscribe(({ scope, id }) => this.forget(scope as RevocationScope, id)), onMissedNotifications(() => this.clear())];
  }

  get size(): number {
    return this.entries.size;
  }

  /** True while `sessionId` is known active at `now`; false means "ask the database", not "revoked". */
  isActive(sessionId: string, now: number): boolean {
    const entry = this.entries.get(sessionId);
    if (!entry) return false;
    if (entry.until > now) return true;
    this.drop(sessionId);
    return false;
  }

  /** A session the database just said is active, until its own expiry or the TTL, whichever comes first. */
  remember(sessionId: string, session: { userId: string; familyId: string; expiresAt: Date }, now: number): void {
    this.drop(sessionId);
    const until = Math.min(session.expiresAt.getTime(), now + this.ttlMs);
    if (until <= now) return;
    this.entries.set(sessionId, { until, userId: session.userId, familyId: session.familyId });
    add(this.byFamily, session.familyId, sessionId);
    add(this.byUser, session.userId, sessionId);
    // Oldest first: Map keeps insertion order.
    while (this.entries.size > this.maxEntries) this.drop(this.entries.keys().next().value!);
  }

  forget(scope: RevocationScope, id: string): void {
    const sids = (scope === "user" ? this.byUser : this.byFamily).get(id);
    if (sids === undefined) return;
    for (const sid of typeof sids === "string" ? [sids] : [...sids]) this.drop(sid);
  }

  clear(): void {
    this.entries.clear();
    this.byFamily.clear();
    this.byUser.clear();
  }

  /** Stops following revocations (tests that simulate another process). */
  close(): void {
    for (const stop of this.stops) stop();
    this.clear();
  }

  private drop(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    remove(this.byFamily, entry.familyId, sessionId);
    remove(this.byUser, entry.userId, sessionId);
  }
}

type Sids = string | Set<string>;

function add(index: Map<string, Sids>, key: string, sid: string) {
  const sids = index.get(key);
  if (sids === undefined || sids === sid) index.set(key, sid);
  else if (typeof sids === "string") index.set(key, new Set([sids, sid]));
  else sids.add(sid);
}

function remove(index: Map<string, Sids>, key: string, sid: string) {
  const sids = index.get(key);
  if (sids === undefined) return;
  if (typeof sids === "string") {
    if (sids === sid) index.delete(key);
    return;
  }
  sids.delete(sid);
  if (sids.size === 1) index.set(key, sids.values().next().value!);
  else if (!sids.size) index.delete(key);
}

/** This process's cache (server.ts and the Remix build load their own copies of this module: they share it). */
const KEY = Symbol.for("tribuna.session-cache");
const globalCache = globalThis as typeof globalThis & { [KEY]?: SessionCache };
export const sessionCache: SessionCache = (globalCache[KEY] ??= new SessionCache());

/**
 * Tells every process that sessions ended: this one forgets at once; the
 * others through NOTIFY when `db`'s transaction commits (at once outside one).
 */
export async function publishRevocation(db: DbOrTx, scope: RevocationScope, id: string): Promise<void> {
  sessionCache.forget(scope, id);
  await sessionRevocations.publishInTransaction(db, { scope, id });
}
