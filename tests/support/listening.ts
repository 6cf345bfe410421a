import { sql } from "drizzle-orm";
import postgres from "postgres";
import { getDatabase } from "#server/db/client";
import { LISTENER_APPLICATION_NAME, startNotifications, type NotificationsListener, type NotificationsOptions } from "#server/db/notify";
import { withDatabase } from "./db";

/** This test file's process listening for changes on its own test database (PostgreSQL), and a connection playing another process. */
export interface ListeningProcess {
  listener: NotificationsListener;
  /** Another process's connection to the same database. */
  other: postgres.Sql;
  stop(): Promise<void>;
}

export async function listenOnTestDatabase(options: Omit<NotificationsOptions, "url">): Promise<ListeningProcess> {
  const database = await getDatabase();
  const [{ name }] = (await database.db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
  const url = withDatabase(process.env.DATABASE_URL!, name);
  const listener = await startNotifications(database, { url, ...options });
  const other = postgres(url, { max: 2, onnotice: () => {} });
  return {
    listener,
    other,
    async stop() {
      await listener.stop();
      await other.end();
    },
  };
}

/** Ends this database's listening connection from outside, as a restart or a cut would; answers how many were ended. */
export async function killListener(other: postgres.Sql): Promise<number> {
  const [{ killed }] = await other`
    select count(pg_terminate_backend(pid))::int as killed from pg_stat_activity
    where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database() and backend_type = 'client backend'`;
  return killed;
}
