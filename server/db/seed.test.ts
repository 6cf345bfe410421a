import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { responsiveImage } from "#common/images";
import { isValidCuit } from "#common/cuit";
import { getDatabase } from "#server/db/client";
import { uploadsDir } from "#server/media/images";
import { listPublicEvents, getPublicEvent } from "#server/events/catalogue";
import { orders, organizations, users } from "#server/db/schema";
import { assertLedgerMatches } from "#server/ledger/invariants";
import { organizationBalance } from "#server/ledger/ledger";
import { listMyTickets } from "#server/tickets/tickets";
import { myPromoterGroup } from "#server/promoters/groups";
import { getMetricReferralSalesByUser } from "#server/promoters/metrics";
import { actorFor, ctxAs } from "#tests/support/context";
import { DEMO_ORGANIZATIONS } from "./seed-events";
import { seedDemo } from "./seed";

// The demo's posters go to a throwaway folder, never .data (env() is read lazily).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-seed-"));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

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

    // Every demo event has its own poster, stored at every width.
    const images = catalogue.items.map((e) => e.imageUrl);
    expect(images.every((url) => url && responsiveImage(url).srcSet)).toBe(true);
    expect(new Set(images).size).toBe(images.length);
    const widest = path.join(uploadsDir(), images[0]!.replace("/imagenes/", ""));
    expect(await sharp(fs.readFileSync(widest)).metadata()).toMatchObject({ format: "webp", width: 1200, height: 675 });
    expect(fs.readdirSync(uploadsDir()).filter((f) => f.endsWith(".webp"))).toHaveLength(images.length * 3);

    // Two real purchases paid in the sandbox: tickets for the demo buyer, money in the producer's ledger.
    const [buyer] = await db.select().from(users).where(eq(users.email, "comprador@tribuna.ar"));
    const mine = await listMyTickets(await ctxAs(actorFor(buyer)));
    expect(mine.upcoming.map((t) => [t.event.name, t.ticketTypeName, t.statusLabel])).toEqual([
      ["Tango en el Conventillo", "Platea", "Válida"],
      ["Tango en el Conventillo", "Platea", "Válida"],
    ]);
    const [org] = await db.select().from(organizations).where(eq(organizations.slug, "producciones-del-plata"));
    // 2 × $ 15.000 + 1 × $ 48.000, our 10 % fee on top.
    expect(await organizationBalance(db, org.id)).toBe(7_800_000);
    for (const order of await db.select().from(orders).where(eq(orders.organizationId, org.id))) await assertLedgerMatches(db, order.id);

    // The demo promoters are in a group of that organization, and Romina has Carla's purchase to show.
    const [romi] = await db.select().from(users).where(eq(users.email, "rrpp@tribuna.ar"));
    expect(await getMetricReferralSalesByUser(await ctxAs(actorFor(romi)), { organizationId: org.id })).toMatchObject([{ eventName: "Tango en el Conventillo", totalCount: 1, totalAccreditedCount: 0 }]);
    const [lead] = await db.select().from(users).where(eq(users.email, "lider-rrpp@tribuna.ar"));
    expect(await myPromoterGroup(await ctxAs(actorFor(lead)), org.id)).toMatchObject({ isLead: true, group: { name: "RRPP del Plata" } });
  });
});
