import { describe, expect, it } from "vitest";
import { isValidCuit } from "#app/lib/cuit";
import { getDatabase } from "#server/db/client";
import { listPublicEvents, getPublicEvent } from "#server/events/catalogue";
import { ctxAs } from "#tests/support/context";
import { DEMO_ORGANIZATIONS } from "./seed-events";
import { seedDemo } from "./seed";

describe("demo seed", () => {
  it("loads a living catalogue once, and running it again changes nothing", async () => {
    const { db } = await getDatabase();
    expect((await seedDemo(db)).created).toBe(true);
    expect((await seedDemo(db)).created).toBe(false);
    const ctx = await ctxAs();
    const catalogue = await listPublicEvents(ctx, { limit: 48 });
    expect(catalogue.total).toBeGreaterThanOrEqual(12);
    expect(new Set(catalogue.items.map((e) => e.province)).size).toBeGreaterThanOrEqual(6);
    expect(catalogue.items.some((e) => e.minPrice === 0)).toBe(true);
    const soldOut = await getPublicEvent(ctx, "stand-up-la-plata");
    expect(soldOut.ticketTypes.every((t) => t.state === "sold_out")).toBe(true);
    const withPresale = await getPublicEvent(ctx, "fiesta-bresh", { presaleCode: "breshpre", accessCode: "amigosbresh" });
    expect(withPresale.ticketTypes.map((t) => t.name)).toEqual(["Preventa", "General", "Invitados RRPP"]);
    expect(DEMO_ORGANIZATIONS.every((o) => isValidCuit(o.cuit))).toBe(true);
  });
});
