/**
 * Another app process that signs someone out (server/auth/session-cache.test.ts): its own Node process and
 * connection pool on the database of `DATABASE_URL`, ending the sign-in of the refresh token given (argv[2])
 * as `logout` does, then exiting. Prints the user whose sign-in ended.
 */
import { connectPostgres, setDatabase } from "#server/db/client";
import { revokeSessionFamily } from "#server/auth/sessions";

const database = connectPostgres(process.env.DATABASE_URL!, { max: 1 });
setDatabase(database);
const userId = await revokeSessionFamily(database.db, process.argv[2], new Date());
console.log(JSON.stringify({ userId }));
await database.close();
