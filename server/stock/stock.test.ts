import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { ticketTypes } from "#server/db/schema";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets } from "#tests/support/factories";
import { holdStock, releaseStock } from "./stock";

async function soldOf(...ids: string[]) {
  const db = await getDb();
  const rows = await db.select({ id: ticketTypes.id, sold: ticketTypes.sold }).from(ticketTypes).where(inArray(ticketTypes.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id)!.sold);
}

describe("stock", () => {
  it("holds all or nothing: when one ticket type is short, what was taken is given back", async () => {
    const { tickets } = await createEventWithTickets([
      { name: "General", price: 1_000_000, stock: 10 },
      { name: "VIP", price: 3_000_000, stock: 2 },
    ]);
    const db = await getDb();
    const now = new Date();
    const lines = [
      { ticketTypeId: tickets.General.id, qty: 4 },
      { ticketTypeId: tickets.VIP.id, qty: 3 },
    ];
    expect(await holdStock(db, lines, now)).toEqual({ short: tickets.VIP.id });
    expect(await soldOf(tickets.General.id, tickets.VIP.id)).toEqual([0, 0]);

    const ok = await holdStock(db, [lines[0], { ticketTypeId: tickets.VIP.id, qty: 2 }], now);
    expect("held" in ok && ok.held.map((h) => [h.name, h.qty, h.unitPrice]).sort()).toEqual([
      ["General", 4, 1_000_000],
      ["VIP", 2, 3_000_000],
    ]);
    expect(await soldOf(tickets.General.id, tickets.VIP.id)).toEqual([4, 2]);
    await releaseStock(db, [{ ticketTypeId: tickets.VIP.id, qty: 2 }], now);
    expect(await soldOf(tickets.General.id, tickets.VIP.id)).toEqual([4, 0]);
  });

  it("a paused ticket type is short for a new sale (onlyActive), not for a late payment re-holding its units", async () => {
    const { tickets } = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 10 }]);
    const db = await getDb();
    await db.update(ticketTypes).set({ status: "paused" }).where(eq(ticketTypes.id, tickets.General.id));
    const line = [{ ticketTypeId: tickets.General.id, qty: 1 }];
    expect(await holdStock(db, line, new Date(), { onlyActive: true })).toEqual({ short: tickets.General.id });
    expect("held" in (await holdStock(db, line, new Date()))).toBe(true);
  });
});

describe.runIf(hasPostgresServer)("stock under contention", () => {
  it("60 buyers at once for 25 units of two ticket types taken in opposite orders: exactly what there is, no deadlock", async () => {
    const { tickets } = await createEventWithTickets([
      { name: "A", price: 1_000_000, stock: 25 },
      { name: "B", price: 1_000_000, stock: 25 },
    ]);
    const db = await getDb();
    const a = tickets.A.id;
    const b = tickets.B.id;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        db.transaction((tx) =>
          holdStock(tx, i % 2 ? [{ ticketTypeId: a, qty: 1 }, { ticketTypeId: b, qty: 1 }] : [{ ticketTypeId: b, qty: 1 }, { ticketTypeId: a, qty: 1 }], new Date()),
        ),
      ),
    );
    expect(results.filter((r) => "held" in r)).toHaveLength(25);
    expect(await soldOf(a, b)).toEqual([25, 25]);
  });
});
