import path from "node:path";
import fs from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { env } from "#server/env";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** A database handle or an open transaction: domain functions accept both. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "postgres" | "pglite";
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(process.cwd(), "drizzle");

type UnsafeOptions = { prepare?: boolean } & Record<string, unknown>;

/**
 * The postgres.js client drizzle gets, with every statement prepared once per
 * connection and reused (decision 135). Drizzle asks for unnamed statements unless
 * a query is given a name (`prepare: false`), and postgres.js then sends each
 * statement with parameters in two round trips: Parse and Describe to learn
 * the parameter types, then Bind and Execute. A hold's transaction paid that
 * for every statement; prepared, the second time a connection sees a
 * statement it is one round trip with no parsing or planning. Transactions and
 * savepoints hand drizzle a client of their own, so they are wrapped too.
 * Statements without parameters keep postgres.js's simple protocol.
 *
 * Bounded (decision 195): a connection keeps every statement it prepared, in PostgreSQL and in postgres.js, until
 * it closes. Only the first `MAX_PREPARED_STATEMENTS` distinct texts of a process, each at most
 * `MAX_PREPARED_TEXT` characters, are prepared (the hot ones are the first to come); any other runs unnamed.
 */
export const MAX_PREPARED_STATEMENTS = 1_000;
export const MAX_PREPARED_TEXT = 16 * 1024;

export function preparingStatements<T extends postgres.Sql | postgres.TransactionSql>(sql: T, prepared = new Set<string>()): T {
  return new Proxy(sql, {
    get(target, key) {
      if (key === "unsafe") {
        return (query: string, params?: unknown[], options?: UnsafeOptions) => {
          const prepare = prepared.has(query) || (prepared.size < MAX_PREPARED_STATEMENTS && query.length <= MAX_PREPARED_TEXT && Boolean(prepared.add(query)));
          return target.unsafe(query, params as postgres.ParameterOrJSON<never>[], { ...options, prepare });
        };
      }
      if (key === "begin" || key === "savepoint") {
        const open = Reflect.get(target, key) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const callback = args.pop() as (inner: postgres.TransactionSql) => unknown;
          return open(...args, (inner: postgres.TransactionSql) => callback(preparingStatements(inner, prepared)));
        };
      }
      return Reflect.get(target, key);
    },
  });
}

/**
 * `DATABASE_PREPARED_STATEMENTS=false` is for a pooler in transaction mode
 * that cannot keep a connection's prepared statements (PgBouncer before 1.21,
 * Supavisor on its transaction port): drizzle's unnamed statements, slower.
 */
export function connectPostgres(url: string, options: { max?: number; preparedStatements?: boolean } = {}): Database {
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {} });
  const prepared = options.preparedStatements ?? env().DATABASE_PREPARED_STATEMENTS !== "false";
  const db = drizzlePostgres(prepared ? preparingStatements(client) : client, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    migrate: () => migratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.end({ timeout: 5 }),
  };
}

/** Embedded PostgreSQL (WASM). `dataDir` undefined keeps it in memory. */
export async function connectPglite(dataDir?: string): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    migrate: () => migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
}

/**
 * One database per process. The custom server (server.ts) and the Remix build
 * are two copies of this module, so the handle lives on globalThis: two PGlite
 * instances on one folder would corrupt it.
 */
const GLOBAL_KEY = Symbol.for("tribuna.database");
type GlobalWithDb = typeof globalThis & { [GLOBAL_KEY]?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  const g = globalThis as GlobalWithDb;
  if (!g[GLOBAL_KEY]) {
    const url = env().DATABASE_URL;
    g[GLOBAL_KEY] = url
      ? Promise.resolve(connectPostgres(url))
      : connectPglite(path.resolve(env().DATA_DIR, "pglite"));
  }
  return g[GLOBAL_KEY]!;
}

/** Lets tests and scripts point the app at a database they made. */
export function setDatabase(database: Database) {
  (globalThis as GlobalWithDb)[GLOBAL_KEY] = Promise.resolve(database);
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
