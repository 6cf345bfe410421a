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

/** A given column as insertRows writes it: its SQL type too, to know whether the database hands its value back unchanged. */
interface GivenColumn extends ColumnPlan {
  type: string;
}

/** How the rows are handed back: each column either taken from the row given (`echoed`) or read back by name. */
interface RowRebuild {
  /** The columns read back (`returning`); null: the statement returns nothing. */
  list: SQL | null;
  columns: (ColumnPlan & { echoed: boolean })[];
}

/** What insertRows needs to know of a table, worked out once per table and set of columns (an on-sale calls it for every batch). */
interface TablePlan {
  /** Every column of the table, by the row's key. */
  byKey: Record<string, PgColumn>;
  /** The statement's SQL for a set of given columns (keyed by the keys joined), with how whole rows come back. */
  statements: Map<string, { given: GivenColumn[]; names: SQL; values: SQL; wholeRows: Map<string, RowRebuild> }>;
  /** How the rows come back for a `returning` list (keyed by its keys joined). */
  returning: Map<string, RowRebuild>;
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
    const given = keys.map((key) => ({ key, name: plan.byKey[key].name, column: plan.byKey[key], type: plan.byKey[key].getSQLType() }));
    // Each row is a JSON array, its i-th element the i-th column: `->>` gives the text to cast (a JSON null is
    // NULL), and a jsonb column takes the element itself (a JSON null there is NULL too).
    const values = given.map(({ name, type }, i) => {
      if (!JSON_SAFE_TYPES.test(type)) throw new Error(`insertRows: la columna ${name} (${type}) no viaja como JSON`);
      return type === "jsonb" ? `nullif(given_rows.value -> ${i}, 'null'::jsonb)` : `(given_rows.value ->> ${i})::${type}`;
    });
    statement = { given, names: sql.raw(given.map(({ name }) => `"${name}"`).join(", ")), values: sql.raw(values.join(", ")), wholeRows: new Map() };
    plan.statements.set(signature, statement);
  }
  return statement;
}

function rebuildOf(columns: RowRebuild["columns"]): RowRebuild {
  const read = columns.filter((c) => !c.echoed);
  // Columns by name, never `*`: a prepared statement (decision 135) returning `*` fails once a migration adds a column.
  return { list: read.length ? sql.raw(read.map(({ name }) => `"${name}"`).join(", ")) : null, columns };
}

/** Only the columns asked for, all read back. */
function returningFor(plan: TablePlan, keys: readonly string[]): RowRebuild {
  const signature = keys.join(",");
  let rebuild = plan.returning.get(signature);
  if (!rebuild) plan.returning.set(signature, (rebuild = rebuildOf(keys.map((key) => ({ key, name: plan.byKey[key].name, column: plan.byKey[key], echoed: false })))));
  return rebuild;
}

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INT4 = 2 ** 31;

/**
 * Whether PostgreSQL hands `value` back exactly as given for a column of `type` (so it need not be read back):
 * NULL, text, an int4 integer, a boolean, a valid Date (microseconds hold its milliseconds), a uuid already
 * written as PostgreSQL writes it. Never jsonb: PostgreSQL orders its keys and rewrites its numbers.
 */
function comesBackAsGiven(type: string, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  switch (type) {
    case "text":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value) && (value as number) >= -INT4 && (value as number) < INT4;
    case "boolean":
      return typeof value === "boolean";
    case "timestamp with time zone":
      return value instanceof Date && !Number.isNaN(value.getTime());
    case "uuid":
      return typeof value === "string" && CANONICAL_UUID.test(value);
    default:
      return false;
  }
}

/** Every column of the table: those given whose values all come back unchanged (`echoed[i]`) are not read back. */
function wholeRowsFor(plan: TablePlan, statement: { given: GivenColumn[]; wholeRows: Map<string, RowRebuild> }, echoed: boolean[]): RowRebuild {
  const signature = echoed.map((e) => (e ? "1" : "0")).join("");
  let rebuild = statement.wholeRows.get(signature);
  if (!rebuild) {
    const fromGiven = new Set(statement.given.filter((_, i) => echoed[i]).map(({ key }) => key));
    rebuild = rebuildOf(Object.keys(plan.byKey).map((key) => ({ key, name: plan.byKey[key].name, column: plan.byKey[key], echoed: fromGiven.has(key) })));
    statement.wholeRows.set(signature, rebuild);
  }
  return rebuild;
}

/**
 * Many rows into one table as a single parameter, a JSON array of rows (each
 * an array of its columns' values) read by `jsonb_array_elements`, returning
 * the rows as drizzle's own insert would (all their columns, or only those in
 * `returning`).
 *
 * Why: drizzle builds a multi-row INSERT one parameter at a time; for the
 * 100 orders of an on-sale batch (20 columns each) that took ~18 ms of CPU,
 * more than the rest of the batch (decision 141). Here the statement is the same
 * size whatever the row count, and what it needs to know of the table is
 * worked out once. Rows are inserted in the order given (serial ids follow
 * it). Every row must give the same columns: one left out is NULL, not the
 * column's default. Whole rows come back without reading back what PostgreSQL
 * would return unchanged (decision 244).
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
  const statement = statementFor(plan, [...keys]);
  const { given, names, values } = statement;
  // A Date as the string JSON would make of it: JSON.stringify takes its slow path (2–3× the time) for
  // objects with toJSON. Rows of a batch share their Dates (the batch's "now"), and toJSON costs ~0.6 µs.
  let lastDate: Date | null = null;
  let lastJson = "";
  const width = given.length;
  // Whole rows asked for: a given column whose every value comes back as given is not read back (parsing
  // what was just sent was most of what the rows cost on return: their dates and ids).
  const echoed: boolean[] = returning ? [] : given.map(() => true);
  // Arrays, not objects keyed by column: ~40 % less to build and stringify (no keys, repeated on every row), and
  // less JSON for PostgreSQL to parse.
  const positional = rows.map((row) => {
    const out: unknown[] = new Array(width);
    for (let i = 0; i < width; i++) {
      const value = (row as Record<string, unknown>)[given[i].key];
      if (!returning && echoed[i] && !comesBackAsGiven(given[i].type, value)) echoed[i] = false;
      if (value instanceof Date) {
        if (value !== lastDate) {
          lastDate = value;
          lastJson = value.toJSON();
        }
        out[i] = lastJson;
      } else out[i] = value ?? null;
    }
    return out;
  });
  const rebuild = returning ? returningFor(plan, returning) : wholeRowsFor(plan, statement, echoed);
  const result = await db.execute(sql`
    insert into ${table} (${names})
    select ${values} from jsonb_array_elements(${JSON.stringify(positional)}::jsonb) with ordinality as given_rows
    order by given_rows.ordinality
    ${rebuild.list ? sql`returning ${rebuild.list}` : sql``}`);
  // Returned in the order given: the i-th row read back is the i-th row sent.
  const read = resultRows<Record<string, unknown>>(result);
  return rows.map((givenRow, i) => {
    const row: Record<string, unknown> = {};
    for (const { key, name, column, echoed: fromGiven } of rebuild.columns) {
      if (!fromGiven) row[key] = fromDatabase(column, read[i]?.[name]);
      else {
        const value = (givenRow as Record<string, unknown>)[key];
        // A Date of its own, as a read would make: rows of a batch share the Dates they were given.
        row[key] = value instanceof Date ? new Date(value.getTime()) : (value ?? null);
      }
    }
    return row as Pick<T["$inferSelect"], K>;
  });
}

function fromDatabase(column: PgColumn, value: unknown): unknown {
  return value === null || value === undefined ? null : column.mapFromDriverValue(value);
}
