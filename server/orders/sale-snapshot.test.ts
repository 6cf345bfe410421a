import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "#server/db/client";
import { events } from "#server/db/schema";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { forgetSaleSnapshots, saleSnapshot, saleSnapshotsKept, SALE_SNAPSHOT_MAX_BYTES, SALE_SNAPSHOT_MAX_ENTRIES } from "./sale-snapshot";

beforeEach(() => forgetSaleSnapshots());
afterEach(() => vi.useRealTimers());

describe("the sale snapshot stays bounded", () => {
  it("in count: asking for many more slugs than it keeps (most of them no event at all) never grows it past its bound", async () => {
    const db = await getDb();
    const tag = crypto.randomBytes(3).toString("hex");
    // The clock stands still: on a busy machine 650 reads outlast a copy's second, and expired copies would leave
    // room early (which is right, but is not what this test measures).
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let i = 0; i < SALE_SNAPSHOT_MAX_ENTRIES + 150; i++) {
      expect(await saleSnapshot(db, `no-existe-${tag}-${i}`)).toBeNull();
      expect(saleSnapshotsKept().entries).toBeLessThanOrEqual(SALE_SNAPSHOT_MAX_ENTRIES);
    }
    expect(saleSnapshotsKept().entries).toBe(SALE_SNAPSHOT_MAX_ENTRIES);
  });

  it("in bytes: events with long descriptions fill it past its bytes, it stays under them and still answers each one right", async () => {
    const db = await getDb();
    const producer = await createProducer();
    const description = "Una noche para bailar. ".repeat(15_000); // ~345 kB (a copy over a tenth of the bound is not kept): twelve fill it
    const created = [];
    for (let i = 0; i < 16; i++) {
      const { event } = await createPublishedEvent(producer.ctx, producer.organization.id, { name: `Noche larga ${i}` });
      created.push(event);
    }
    // Longer than the domain lets an organizer write: set behind its back, to fill the cache with few events.
    await db.update(events).set({ description }).where(eq(events.organizationId, producer.organization.id));
    for (const event of created) {
      const snapshot = await saleSnapshot(db, event.slug);
      expect(snapshot?.event.id).toBe(event.id);
      expect(snapshot?.event.description).toHaveLength(description.length);
      expect(saleSnapshotsKept().bytes).toBeLessThanOrEqual(SALE_SNAPSHOT_MAX_BYTES);
    }
    expect(saleSnapshotsKept().entries).toBeLessThan(created.length);
    expect(saleSnapshotsKept().entries).toBeGreaterThan(0);
  });
});
