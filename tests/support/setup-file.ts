import { afterAll, beforeAll, inject } from "vitest";
import { setDatabase, type Database } from "#server/db/client";
import { createTestDatabase } from "./db";

// Stable secrets and no outside mail in tests.
process.env.AUTH_SECRET ??= "test-secret-with-at-least-thirty-two-characters!";
process.env.APP_URL ??= "http://localhost:3000";
delete process.env.SMTP_URL;

let database: Database | undefined;

/** Every test file gets its own database; the app's getDb() returns it too. */
beforeAll(async () => {
  database = await createTestDatabase(inject("templateDatabase"));
  setDatabase(database);
});

afterAll(async () => {
  await database?.close();
});
