import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client";
import { resultRows } from "./raw";

// Column types a row can carry through JSON unchanged (dates as ISO strings, jsonb as nested JSON).
const JSON_SAFE_TYPES = /^(uuid|text|integer|bigint|boolean|jsonb|timestamp with time zone)$/;

/** One column as insertRows writes and reads it: the row's key, the database's name, drizzle's column. */
interface ColumnPlan {
  key: string;
  name: string;
  column: PgColumn;
}

/** What insertRows needs to know of a table, worked out once per table and set of columns (an on-sale calls it for every batch). */
interface TablePlan {
  /** Every column of the table, by the row's key. */
  byKey: Record<string, PgColumn>;
  /** The statement's SQL for a set of given columns (keyed by the keys joined) and for a `returning` list. */
  statements: Map<string, { given: ColumnPlan[]; names: SQL; definitions: SQL }>;
  returning: Map<string, { list: SQL; columns: ColumnPlan[] }>;
}
const plans = new WeakMap<PgTable, TablePlan>();

function planOf(table: PgTable): TablePlan {
  let plan = plans.get(table);
  if (!plan) plans.set(table, (plan = { byKey: getTableColumns(table) as Record<string, PgColumn>, statements: new Map(), returning: new Map() }));
  return plan;
}

function statementFor(plan: TablePlan, keys: string[]) {
  const signature = keys.join(",");
  let statement = plan.statements.get(signature);
  if (!statement) {
    const given = keys.map((key) => ({ key, name: plan.byKey[key].name, column: plan.byKey[key] }));
    const definitions = given.map(({ name, column }) => {
      const type = column.getSQLType();
      if (!JSON_SAFE_TYPES.test(type)) throw new Error(`insertRows: la columna ${name} (${type}) no viaja como JSON`);
      return `"${name}" ${type}`;
    });
    statement = { given, names: sql.raw(given.map(({ name }) => `"${name}"`).join(", ")), definitions: sql.raw(definitions.join(", ")) };
    plan.statements.set(signature, statement);
  }
  return statement;
}

function returningFor(plan: TablePlan, keys: readonly string[] | undefined) {
  const signature = keys ? keys.join(",") : "*";
  let returning = plan.returning.get(signature);
  if (!returning) {
    const columns = (keys ?? Object.keys(plan.byKey)).map((key) => ({ key, name: plan.byKey[key].name, column: plan.byKey[key] }));
    // Columns by name, never `*`: a prepared statement (decision 135) returning `*` fails once a migration adds a column.
    returning = { list: sql.raw(columns.map(({ name }) => `"${name}"`).join(", ")), columns };
    plan.returning.set(signature, returning);
  }
  return returning;
}

/**
 * Many rows into one table as a single parameter, a JSON array read back by
 * `jsonb_to_recordset`, returning the rows as drizzle's own insert would
 * (all their columns, or only those in `returning`).
 *
 * Why: drizzle builds a multi-row INSERT one parameter at a time; for the
 * 100 orders of an on-sale batch (20 columns each) that took ~18 ms of CPU,
 * more than the rest of the batch (decision 141). Here the statement is the same
 * size whatever the row count, and what it needs to know of the table is
 * worked out once. Rows are inserted in the order given (serial ids follow
 * it). Every row must give the same columns: one left out is NULL, not the
 * column's default.
 */
export async function insertRows<T extends PgTable, K extends keyof T["$inferSelect"] & string = keyof T["$inferSelect"] & string>(
  db: DbOrTx,
  table: T,
  rows: T["$inferInsert"][],
  returning?: readonly K[],
): Promise<Pick<T["$inferSelect"], K>[]> {
  if (!rows.length) return [];
  const plan = planOf(table);
  const keys = new Set<string>();
  for (const row of rows) for (const key in row) if (plan.byKey[key]) keys.add(key);
  const { given, names, definitions } = statementFor(plan, [...keys]);
  // A Date as the string JSON would make of it: JSON.stringify takes its slow path (2–3× the time) for
  // objects with toJSON. Rows of a batch share their Dates (the batch's "now"), and toJSON costs ~0.6 µs.
  let lastDate: Date | null = null;
  let lastJson = "";
  const values = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const { key, name } of given) {
      const value = (row as Record<string, unknown>)[key];
      if (value instanceof Date) {
        if (value !== lastDate) {
          lastDate = value;
          lastJson = value.toJSON();
        }
        out[name] = lastJson;
      } else out[name] = value ?? null;
    }
    return out;
  });
  const back = returningFor(plan, returning);
  const result = await db.execute(sql`
    insert into ${table} (${names})
    select ${names} from rows from (jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as (${definitions})) with ordinality as given_rows
    order by given_rows.ordinality
    returning ${back.list}`);
  return resultRows<Record<string, unknown>>(result).map((raw) => {
    const row: Record<string, unknown> = {};
    for (const { key, name, column } of back.columns) {
      const value = raw[name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as Pick<T["$inferSelect"], K>;
  });
}
