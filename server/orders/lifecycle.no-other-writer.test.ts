import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The order lifecycle (server/orders/lifecycle.ts, decision 173) is the only
 * writer of `orders.status` and `billings.status`. This scans the server's
 * sources for anything else that writes them: a Drizzle `.update(orders)` /
 * `.update(billings)` whose `.set({…})` names `status`, or raw SQL
 * `UPDATE orders … SET … status` / any `UPDATE billings … status`. Simple on purpose: a writer
 * hidden behind a variable (`.set(values)`) is a review's job.
 */

const SERVER = path.resolve(import.meta.dirname, "..");
const OWNER = path.join("orders", "lifecycle.ts");

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Comments out of the way: they may describe an UPDATE without running one. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** Every status write on the two tables found in one source, as "line: text". */
export function statusWrites(source: string): string[] {
  const code = withoutComments(source);
  const found: { at: number; what: string }[] = [];
  for (const m of code.matchAll(/\.update\(\s*(orders|billings)\s*\)/g)) {
    // The statement's SET: up to its WHERE (or the end of the statement).
    const rest = code.slice(m.index + m[0].length);
    const end = rest.search(/\.where\(|;|\.returning\(/);
    const set = end < 0 ? rest.slice(0, 400) : rest.slice(0, end);
    if (/\bstatus\b/.test(set)) found.push({ at: m.index, what: `.update(${m[1]}) setting status` });
  }
  for (const m of code.matchAll(/\bupdate\s+(?:\$\{\s*)?(orders|billings)\b[^;`]*/gi)) {
    const set = /\bset\b([\s\S]*?)(?:\bwhere\b|$)/i.exec(m[0])?.[1] ?? "";
    if (/\bstatus\b/i.test(set)) found.push({ at: m.index, what: `raw UPDATE ${m[1]} setting status` });
  }
  return found.map(({ at, what }) => `${code.slice(0, at).split("\n").length}: ${what}`);
}

describe("the order lifecycle is the only writer of orders.status and billings.status", () => {
  it("finds the writers it looks for (so a new one cannot slip past)", () => {
    expect(statusWrites(`await tx.update(orders).set({ status: "closed", updatedAt: now }).where(eq(orders.id, id));`)).toHaveLength(1);
    expect(statusWrites(`await tx\n  .update(billings)\n  .set({ updatedAt: now, status })\n  .where(x);`)).toHaveLength(1);
    expect(statusWrites("await tx.execute(sql`UPDATE orders SET status = 'closed' WHERE id = ${id}`);")).toHaveLength(1);
    expect(statusWrites("await tx.execute(sql`update ${billings} set status = 'cancelled' where order_id = ${id}`);")).toHaveLength(1);
    // Not status writes: other columns, reads, and comments describing one.
    expect(statusWrites(`await ctx.db.update(billings).set({ providerReference, updatedAt: now }).where(eq(billings.status, "pending"));`)).toEqual([]);
    expect(statusWrites(`await db.update(orders).set({ buyerUserId: id }).where(and(eq(orders.id, id), eq(orders.status, "billed")));`)).toEqual([]);
    expect(statusWrites("// one conditional UPDATE billings … SET status WHERE status = 'approved'\nconst x = 1;")).toEqual([]);
    expect(statusWrites("const q = sql`update orders set hold_expires_at = now() where status = 'draft'`;")).toEqual([]);
  });

  it("no module of server/ but server/orders/lifecycle.ts writes them", () => {
    const offenders = sourcesUnder(SERVER)
      .filter((file) => path.relative(SERVER, file) !== OWNER)
      .flatMap((file) => statusWrites(fs.readFileSync(file, "utf8")).map((w) => `server/${path.relative(SERVER, file)}:${w}`));
    expect(offenders).toEqual([]);
    // The owner itself is found by the same scan: the test is looking in the right place.
    expect(statusWrites(fs.readFileSync(path.join(SERVER, OWNER), "utf8")).length).toBeGreaterThan(0);
  });
});
