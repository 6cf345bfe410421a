import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { pgTable, text, uuid } from "drizzle-orm/pg-core";
import { afterEach, describe, expect, it } from "vitest";
import { hasPostgresServer } from "#tests/support/db";
import { insertRows } from "./bulk-insert";
import { connectPostgres, MAX_PREPARED_STATEMENTS, MAX_PREPARED_TEXT, type Database } from "./client";
import { resultRows } from "./raw";

const open: Database[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((database) => database.close()));
});

/** One connection, so the statements it prepared are the ones pg_prepared_statements lists. */
function connect(options: { preparedStatements?: boolean } = {}) {
  const database = connectPostgres(process.env.DATABASE_URL!, { max: 1, ...options });
  open.push(database);
  return database.db;
}

async function preparedLike(db: Database["db"], marker: string) {
  const rows = resultRows<{ statement: string }>(await db.execute(sql.raw(`select statement from pg_prepared_statements where statement like '%${marker}%'`)));
  return rows.map((row) => row.statement);
}

describe.runIf(hasPostgresServer)("statements on PostgreSQL", () => {
  it("prepares a statement once per connection and reuses it, also inside transactions and savepoints", async () => {
    const db = connect();
    const sum = (n: number) => db.execute(sql`select ${n}::int + 1 as n /* reuse_marker */`);
    expect(resultRows<{ n: number }>(await sum(1))[0].n).toBe(2);
    expect(resultRows<{ n: number }>(await sum(2))[0].n).toBe(3);
    const inside = await db.transaction(async (tx) => {
      const first = resultRows<{ n: number }>(await tx.execute(sql`select ${10}::int + 1 as n /* reuse_marker */`))[0].n;
      const nested = await tx.transaction(async (savepoint) => resultRows<{ n: number }>(await savepoint.execute(sql`select ${20}::int + 1 as n /* reuse_marker */`))[0].n);
      return [first, nested];
    });
    expect(inside).toEqual([11, 21]);
    expect(await preparedLike(db, "reuse_marker")).toEqual(["select $1::int + 1 as n /* reuse_marker */"]);
  });

  it("prepares at most MAX_PREPARED_STATEMENTS distinct texts, none longer than MAX_PREPARED_TEXT; the rest run unnamed and answer", async () => {
    const db = connect();
    const tag = crypto.randomBytes(3).toString("hex");
    for (let i = 0; i < MAX_PREPARED_STATEMENTS + 100; i++) {
      const n = resultRows<{ n: number }>(await db.execute(sql`select ${i}::int as n /* ${sql.raw(`bound_${tag}_${i}`)} */`))[0].n;
      expect(n).toBe(i);
    }
    const long = resultRows<{ n: number }>(await db.execute(sql`select ${7}::int as n /* ${sql.raw(`long_${tag} ${"x".repeat(MAX_PREPARED_TEXT)}`)} */`))[0].n;
    expect(long).toBe(7);
    const count = (marker: string) => db.execute(sql.raw(`select count(*)::int as n from pg_prepared_statements where statement like '%${marker}%'`));
    expect(resultRows<{ n: number }>(await count(`bound_${tag}`))[0].n).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS);
    expect(resultRows<{ n: number }>(await count(`long_${tag}`))[0].n).toBe(0);
    // The first ones stay prepared and keep being reused.
    await db.execute(sql`select ${0}::int as n /* ${sql.raw(`bound_${tag}_0`)} */`);
    expect(await preparedLike(db, `bound_${tag}_0 `)).toHaveLength(1);
  });

  it("a rolled-back transaction leaves the connection usable, its statements still prepared", async () => {
    const db = connect();
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select ${1}::int as n /* rollback_marker */`);
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(resultRows<{ n: number }>(await db.execute(sql`select ${5}::int as n /* rollback_marker */`))[0].n).toBe(5);
    expect(await preparedLike(db, "rollback_marker")).toHaveLength(1);
  });

  it("a prepared insert keeps working after a migration adds a column to its table (a rolling deploy)", async () => {
    const db = connect();
    const name = `prepared_probe_${crypto.randomBytes(4).toString("hex")}`;
    const probe = pgTable(name, { id: uuid("id").primaryKey().defaultRandom(), label: text("label").notNull() });
    await db.execute(sql.raw(`create table ${name} (id uuid primary key default gen_random_uuid(), label text not null)`));
    try {
      expect((await insertRows(db, probe, [{ label: "antes" }]))[0].label).toBe("antes");
      await db.execute(sql.raw(`alter table ${name} add column added_later text`));
      // The same statement on the same connection, in a transaction as a hold batch writes it (postgres.js
      // re-prepares a statement whose result changed, but not inside a transaction the error already aborted):
      // it returns its columns by name, so the new one changes nothing.
      const [row] = await db.transaction((tx) => insertRows(tx, probe, [{ label: "después" }]));
      expect(row.label).toBe("después");
    } finally {
      await db.execute(sql.raw(`drop table ${name}`));
    }
  });

  it("DATABASE_PREPARED_STATEMENTS=false (a pooler in transaction mode) prepares nothing and still answers", async () => {
    const db = connect({ preparedStatements: false });
    expect(resultRows<{ n: number }>(await db.execute(sql`select ${7}::int * 2 as n /* unnamed_marker */`))[0].n).toBe(14);
    expect(await preparedLike(db, "unnamed_marker")).toEqual([]);
  });
});
