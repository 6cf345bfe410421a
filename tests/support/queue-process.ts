/**
 * A second app process for the virtual queue's test (server/queue/two-processes.test.ts): its own Node
 * process, connection pool, notifications listener and copy of the queues, on the database of
 * `DATABASE_URL`. Reads one JSON command per line on stdin and answers one JSON line on stdout:
 * `{ "op": "join", "slug", "userIds", "now" }` → the places; `{ "op": "places", "slug", "userIds", "now" }` →
 * each account's place as this process's copy shows it; `{ "op": "tick", "now" }` → the admitter's outcome;
 * `{ "op": "settle", "eventId" }` → once the copy caught up with what it heard.
 */
import readline from "node:readline";
import { connectPostgres, setDatabase } from "#server/db/client";
import { startNotifications } from "#server/db/notify";
import { runAdmissionTick } from "#server/queue/admitter";
import { queueMemory } from "#server/queue/memory";
import { joinQueue, queuePlace } from "#server/queue/queue";
import { isDomainError } from "#server/errors";
import type { Ctx } from "#server/context";

const database = connectPostgres(process.env.DATABASE_URL!, { max: 10 });
setDatabase(database);
const listener = await startNotifications(database, { url: process.env.DATABASE_URL!, checkEveryMs: 200, retryMs: 50 });
const ctxOf = (userId: string, now: string): Ctx => ({ db: database.db, actor: { kind: "user", userId, email: `${userId}@example.com`, roles: [] }, now: new Date(now) });

type Command = { op: string; slug?: string; userIds?: string[]; now?: string; eventId?: string };

async function run(command: Command): Promise<unknown> {
  switch (command.op) {
    case "join":
      return Promise.all(command.userIds!.map((id) => joinQueue(ctxOf(id, command.now!), command.slug!)));
    case "places":
      return Promise.all(command.userIds!.map((id) => queuePlace(ctxOf(id, command.now!), command.slug!)));
    case "tick":
      return runAdmissionTick(database.db, new Date(command.now!));
    case "settle":
      await queueMemory.settled(command.eventId!);
      return null;
    default:
      throw new Error(`Orden desconocida: ${command.op}`);
  }
}

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  try {
    console.log(JSON.stringify({ ok: await run(JSON.parse(line) as Command) }));
  } catch (error) {
    console.log(JSON.stringify({ error: isDomainError(error) ? error.code : String(error) }));
  }
}
await listener.stop();
await database.close();
