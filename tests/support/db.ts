import crypto from "node:crypto";
import postgres from "postgres";
import { connectPglite, connectPostgres, type Database } from "#server/db/client";

export const TEMPLATE_DB = "tribuna_test_template";

/** The server's URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Builds the migrated template once per run (global setup). */
export async function createTemplate(url: string) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const template = connectPostgres(withDatabase(url, TEMPLATE_DB), { max: 1 });
  await template.migrate();
  await template.close();
}

/**
 * A fresh, migrated database for one test file: a clone of the template on
 * the PostgreSQL server when DATABASE_URL is set, else in-memory PGlite.
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await connectPglite();
    await database.migrate();
    return database;
  }
  const name = `tribuna_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const database = connectPostgres(withDatabase(url, name), { max: 20 });
  const close = database.close;
  return {
    ...database,
    async close() {
      await close();
      const dropper = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** Concurrency tests need a real server: PGlite runs one query at a time. */
export const hasPostgresServer = Boolean(process.env.DATABASE_URL);
