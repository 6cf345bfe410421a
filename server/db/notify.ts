import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { listenDatabaseUrl } from "#server/env";
import type { Database, DbOrTx } from "./client";

/**
 * "Something changed" across every app process, over PostgreSQL
 * LISTEN/NOTIFY (docs/scaling.md, decision 166). What a process keeps in
 * memory that must follow a change (the door's live view, the page
 * micro-cache, the sale snapshot, the door's event dates) subscribes to a
 * typed channel here; the domain publishes after its change.
 *
 * - Channels are typed and carry ids only (strings, fixed field names, never
 *   personal data): a listener reads what it needs from the database.
 * - `publish` is for a change already committed: this process hears it at
 *   once (synchronously), the others through NOTIFY a few milliseconds later.
 *   `publishInTransaction` sends `pg_notify` inside the transaction: every
 *   process (this one too, through its listener) hears it only if it commits.
 * - Every channel travels on one PostgreSQL channel, `tribuna_changes`, so
 *   the listener needs one LISTEN whatever channels later code defines.
 * - A listening connection that drops is opened again, and since
 *   notifications may have been missed meanwhile, every hook registered with
 *   `onMissedNotifications` runs ("forget everything you keep").
 * - With PGlite there is one process: publishing delivers in-process only.
 *
 * The registry lives on globalThis: server.ts (compiled on its own) and the
 * Remix build each load their own copy of this module, and a change published
 * by one copy must reach listeners registered by the other.
 */

/** The PostgreSQL channel every notification travels on. */
export const PG_CHANNEL = "tribuna_changes";
/** The listening connection's application_name (pg_stat_activity shows who is listening). */
export const LISTENER_APPLICATION_NAME = "tribuna-notifications";
/** NOTIFY accepts up to 8000 bytes; ids need a fraction, and a bigger payload is a mistake. */
const MAX_PAYLOAD_BYTES = 1_000;
const MAX_FIELD_LENGTH = 200;
/** Keys of the wire format: the channel and the process that already delivered it to itself. */
const RESERVED_FIELDS = ["c", "o"];

export type ChannelPayload<K extends string> = { readonly [key in K]: string };
type AnyListener = (payload: Record<string, string>) => void;

export interface Channel<K extends string> {
  readonly name: string;
  /** A committed change: delivered here now and to every other process through NOTIFY. */
  publish(payload: ChannelPayload<K>): void;
  /**
   * A change made in `tx`: `pg_notify` inside it, so every process (this one
   * too) hears it only if the transaction commits. Needs the listener
   * (`startNotifications`): without it nothing is delivered here.
   */
  publishInTransaction(tx: DbOrTx, payload: ChannelPayload<K>): Promise<void>;
  /** Every notification of the channel, from this process or another; answers how to stop. */
  subscribe(listener: (payload: ChannelPayload<K>) => void): () => void;
}

interface Registry {
  /** This process: a notification it sent after delivering it to itself is not delivered twice. */
  origin: string;
  channels: Map<string, { fields: readonly string[]; listeners: Set<AnyListener> }>;
  missedHooks: Set<() => void>;
  /** Sends a wire message to the other processes; null when there are none to tell (PGlite, or not started). */
  send: ((message: string) => Promise<unknown>) | null;
  listening: boolean;
}

const KEY = Symbol.for("tribuna.notifications");
const globalRegistry = globalThis as typeof globalThis & { [KEY]?: Registry };
const registry = (globalRegistry[KEY] ??= {
  origin: crypto.randomUUID(),
  channels: new Map(),
  missedHooks: new Set(),
  send: null,
  listening: false,
});

/**
 * A typed channel whose payload has exactly these string fields (ids). Both
 * copies of a module define the same channel: they share its listeners.
 */
export function defineChannel<K extends string>(name: string, fields: readonly K[]): Channel<K> {
  if (!/^[a-z][a-z0-9_.-]*$/.test(name)) throw new Error(`Nombre de canal inválido: ${name}`);
  if (fields.some((field) => RESERVED_FIELDS.includes(field))) throw new Error(`El canal ${name} usa un campo reservado (${RESERVED_FIELDS.join(", ")}).`);
  let entry = registry.channels.get(name);
  if (!entry) registry.channels.set(name, (entry = { fields: [...fields], listeners: new Set<AnyListener>() }));
  else if (entry.fields.join() !== fields.join()) throw new Error(`El canal ${name} ya existe con otros campos.`);
  const listeners = entry.listeners;
  return {
    name,
    publish(payload) {
      const message = encode(name, fields, payload, registry.origin);
      deliver(listeners, payload);
      registry.send?.(message).catch((error: unknown) => {
        // The others keep their copies until they expire (docs/scaling.md); this process already knows.
        console.error(`No se pudo avisar a los otros procesos (${name}):`, error);
      });
    },
    async publishInTransaction(tx, payload) {
      await tx.execute(sql`select pg_notify(${PG_CHANNEL}, ${encode(name, fields, payload, null)})`);
    },
    subscribe(listener) {
      const any = listener as unknown as AnyListener;
      listeners.add(any);
      return () => listeners.delete(any);
    },
  };
}

/**
 * `forgetAll` runs whenever this process may have missed notifications: the
 * listening connection came back after a drop (and when listening starts).
 * Every cache that follows a channel registers one. Answers how to stop.
 */
export function onMissedNotifications(forgetAll: () => void): () => void {
  registry.missedHooks.add(forgetAll);
  return () => registry.missedHooks.delete(forgetAll);
}

function encode(name: string, fields: readonly string[], payload: Record<string, string>, origin: string | null): string {
  const wire: Record<string, string> = { c: name };
  for (const field of fields) {
    const value = payload[field];
    if (typeof value !== "string" || value.length > MAX_FIELD_LENGTH) throw new Error(`El campo ${field} del canal ${name} tiene que ser un id.`);
    wire[field] = value;
  }
  if (origin) wire.o = origin;
  const message = JSON.stringify(wire);
  if (Buffer.byteLength(message) > MAX_PAYLOAD_BYTES) throw new Error(`El aviso del canal ${name} es demasiado grande.`);
  return message;
}

/** A wire message from PostgreSQL, to the channel's listeners (unless this process sent it after delivering it). */
function receive(message: string): void {
  let wire: unknown;
  try {
    wire = JSON.parse(message);
  } catch {
    return;
  }
  if (!wire || typeof wire !== "object") return;
  const { c, o } = wire as Record<string, unknown>;
  if (o === registry.origin || typeof c !== "string") return;
  const entry = registry.channels.get(c);
  if (!entry) return;
  const payload: Record<string, string> = {};
  for (const field of entry.fields) {
    const value = (wire as Record<string, unknown>)[field];
    if (typeof value !== "string") return;
    payload[field] = value;
  }
  deliver(entry.listeners, payload);
}

function deliver(listeners: Set<AnyListener>, payload: Record<string, string>): void {
  for (const listener of [...listeners]) {
    try {
      listener(payload);
    } catch (error) {
      // One listener's failure is its own: the others still hear the change.
      console.error("Un oyente de cambios falló:", error);
    }
  }
}

function forgetEverything(): void {
  for (const hook of [...registry.missedHooks]) {
    try {
      hook();
    } catch (error) {
      console.error("No se pudo descartar una copia en memoria:", error);
    }
  }
}

export interface NotificationsOptions {
  /** PostgreSQL's URL for the listening connection; default DATABASE_LISTEN_URL, else DATABASE_URL. */
  url?: string;
  /** How often the listening connection is checked (a connection replaced without LISTEN is caught too). */
  checkEveryMs?: number;
  /** First wait before opening a dropped connection again; doubles up to 5 s. */
  retryMs?: number;
  /** How long LISTEN or the check may go unanswered before the connection is given up and opened again. */
  answerWithinMs?: number;
}

/** A listening connection that does not answer in this long is replaced (postgres.js's connect timeout is 5 s). */
const LISTENER_ANSWER_WITHIN_MS = 10_000;

/** `promise`, or a rejection once `ms` pass without its answer. */
function answerWithin<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Sin respuesta en ${ms} ms`)), ms);
    timer.unref?.();
  });
  return Promise.race([Promise.resolve(promise), late]).finally(() => clearTimeout(timer));
}

export interface NotificationsListener {
  stop(): Promise<void>;
}

/**
 * Starts listening for this process (server.ts): with PostgreSQL, a
 * connection of its own that LISTENs and comes back after a drop; with
 * PGlite, the embedded database's own listen (for `publishInTransaction`).
 * Resolves once listening (or, if PostgreSQL does not answer, once the first
 * try failed: it keeps trying in the background).
 */
export async function startNotifications(database: Pick<Database, "db" | "kind">, options: NotificationsOptions = {}): Promise<NotificationsListener> {
  if (registry.listening) throw new Error("Este proceso ya escucha los avisos de cambios.");
  registry.listening = true;
  if (database.kind === "pglite") {
    const client = (database.db as unknown as { $client: { listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> } }).$client;
    const unlisten = await client.listen(PG_CHANNEL, receive);
    return {
      async stop() {
        registry.listening = false;
        await unlisten();
      },
    };
  }
  // LISTEN needs a session of its own: with PgBouncer in transaction mode, DATABASE_LISTEN_URL goes straight to
  // PostgreSQL. Sending (pg_notify, in or out of a transaction) goes through the app's pool as usual.
  const url = options.url ?? listenDatabaseUrl();
  if (!url) throw new Error("Falta DATABASE_URL (o DATABASE_LISTEN_URL) para escuchar los avisos de cambios.");
  const checkEveryMs = options.checkEveryMs ?? 10_000;
  const retryMs = options.retryMs ?? 100;
  const answerWithinMs = options.answerWithinMs ?? LISTENER_ANSWER_WITHIN_MS;
  let stopped = false;
  /** The backend that holds our LISTEN; null while there is none. */
  let listeningPid: number | null = null;
  let reconnecting: Promise<void> | null = null;
  let checking = false;

  // `onnotify` is postgres.js's own hook for notifications (what its `listen` uses), left out of its types.
  type ListenerOptions = postgres.Options<{}> & { onnotify(channel: string, message: string): void };
  /**
   * Every try to listen opens a connection of its own and ends the one before: a query handed to postgres.js while
   * its connection is closing (the check's, right as the backend was killed) can stay unanswered for ever, and on a
   * one-connection client everything after it would wait too.
   */
  const open = (): postgres.Sql => {
    const client: postgres.Sql = postgres(url, {
      max: 1,
      // Never closed on purpose: a closed connection would lose its LISTEN.
      idle_timeout: 0,
      max_lifetime: null,
      fetch_types: false,
      keep_alive: 30,
      // A retry that waits for an unreachable server waits this long, not postgres.js's 30 s.
      connect_timeout: 5,
      onnotice: () => {},
      connection: { application_name: LISTENER_APPLICATION_NAME },
      onnotify: (channel, message) => {
        if (channel === PG_CHANNEL) receive(message);
      },
      onclose: () => {
        // A connection already replaced (or ended on purpose) closing is no news.
        if (client !== connection || listeningPid === null || stopped) return;
        listeningPid = null;
        void listenAgain();
      },
    } satisfies ListenerOptions as postgres.Options<{}>);
    return client;
  };
  let connection: postgres.Sql = open();

  /** LISTEN and learn the backend in one round trip (one simple query: both on the same connection). */
  const listen = async (client: postgres.Sql) => {
    const results = (await answerWithin(client.unsafe(`LISTEN ${PG_CHANNEL}; SELECT pg_backend_pid() AS pid`), answerWithinMs)) as unknown as { pid: number }[][];
    listeningPid = Number(results[1][0].pid);
  };

  const listenAgain = (): Promise<void> =>
    (reconnecting ??= (async () => {
      let wait = retryMs;
      while (!stopped) {
        const previous = connection;
        connection = open();
        void previous.end({ timeout: 0 }).catch(() => {});
        try {
          await listen(connection);
          // Whatever was published while nobody listened is lost: forget every copy this process keeps.
          forgetEverything();
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, wait).unref?.());
          wait = Math.min(wait * 2, 5_000);
        }
      }
    })().finally(() => (reconnecting = null)));

  // A TCP connection can die silently, and postgres.js opens a new one (without our LISTEN) for the next query:
  // the check asks which backend answers, and listens again when it is not the one that listened, or when the
  // answer does not come.
  const check = setInterval(() => {
    if (stopped || reconnecting || checking) return;
    checking = true;
    const client = connection;
    // An answer about a connection already replaced says nothing about the one listening now.
    const stale = () => stopped || reconnecting !== null || client !== connection;
    answerWithin(client`select pg_backend_pid() as pid`, answerWithinMs)
      .then(
        ([row]) => {
          if (Number(row!.pid) !== listeningPid && !stale()) {
            listeningPid = null;
            void listenAgain();
          }
        },
        () => {
          if (stale()) return;
          listeningPid = null;
          void listenAgain();
        },
      )
      .finally(() => (checking = false));
  }, checkEveryMs);
  check.unref?.();

  try {
    await listen(connection);
    forgetEverything();
  } catch (error) {
    console.error("No se pudo escuchar los avisos de cambios; se reintenta:", error);
    void listenAgain();
  }
  registry.send = (message) => database.db.execute(sql`select pg_notify(${PG_CHANNEL}, ${message})`);

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(check);
      registry.send = null;
      registry.listening = false;
      await connection.end({ timeout: 1 });
    },
  };
}
