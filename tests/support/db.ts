import crypto from "node:crypto";
import postgres from "postgres";
import { connectPglite, connectPostgres, type Database } from "#server/db/client";

/** One template per test run, so two runs on one server (CI, a developer) never clobber each other. */
export function templateName(runId: string) {
  return `tribuna_tpl_${runId}`;
}

/** The server's URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Builds the migrated template once per run (global setup). */
export async function createTemplate(url: string, name: string) {
  await dropDatabase(url, name);
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const template = connectPostgres(withDatabase(url, name), { max: 1 });
  await template.migrate();
  await template.close();
}

export async function dropDatabase(url: string, name: string) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh, migrated database for one test file: a clone of the template on
 * the PostgreSQL server when DATABASE_URL is set, else in-memory PGlite.
 */
export async function createTestDatabase(template: string): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await connectPglite();
    await database.migrate();
    return database;
  }
  const name = `tribuna_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const database = connectPostgres(withDatabase(url, name), { max: 20 });
  const close = database.close;
  return {
    ...database,
    async close() {
      await close();
      await dropDatabase(url, name);
    },
  };
}

/** Concurrency tests need a real server: PGlite runs one query at a time. */
export const hasPostgresServer = Boolean(process.env.DATABASE_URL);
