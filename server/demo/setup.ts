import { env } from "#server/env";
import { getDatabase } from "#server/db/client";
import { seedDemo } from "./seed";

/** Run on server start: migrations always; the demo seed unless SEED_DEMO=false. */
export async function prepareDatabase() {
  const database = await getDatabase();
  await database.migrate();
  if (env().SEED_DEMO === "true") await seedDemo(database.db);
  return database;
}
