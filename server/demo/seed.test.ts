import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { responsiveImage } from "#common/images";
import { isValidCuit } from "#common/cuit";
import { getDatabase } from "#server/db/client";
import { uploadsDir } from "#server/media/images";
import { listPublicEvents, getPublicEvent } from "#server/events/catalogue";
import { events, issuedProducts, orders, organizations, users } from "#server/db/schema";
import { getEventForOrganizer, listOrganizationEvents } from "#server/events/events";
import { organizationSummary } from "#server/reports/summary";
import { assertLedgerMatches } from "#server/orders/ledger-invariants";
import { organizationBalance } from "#server/ledger/ledger";
import { listMyTickets } from "#server/tickets/tickets";
import { myPromoterGroup } from "#server/team/promoter-groups";
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
    // Every paid purchase (the demo's sold tickets and the two above) leaves the organization its price: the fee is ours.
    const [kept] = await db.select({ sum: sql<string>`sum(${orders.total} - ${orders.serviceFee})` }).from(orders).where(eq(orders.organizationId, org.id));
    expect(await organizationBalance(db, org.id)).toBe(Number(kept.sum));
    const all = await db.select({ id: orders.id }).from(orders);
    // Written in bulk as the domain writes them: the ledger, billings and tickets of (a tenth of) them agree.
    for (const [i, order] of all.entries()) if (i % 10 === 0) await assertLedgerMatches(db, order.id);

    // The demo promoters are in a group of that organization, and Romina has Carla's purchase to show.
    const [romi] = await db.select().from(users).where(eq(users.email, "rrpp@tribuna.ar"));
    expect(await getMetricReferralSalesByUser(await ctxAs(actorFor(romi)), { organizationId: org.id })).toMatchObject([{ eventName: "Tango en el Conventillo", totalCount: 1, totalAccreditedCount: 0 }]);
    const [lead] = await db.select().from(users).where(eq(users.email, "lider-rrpp@tribuna.ar"));
    expect(await myPromoterGroup(await ctxAs(actorFor(lead)), org.id)).toMatchObject({ isLead: true, group: { name: "RRPP del Plata" } });
  });

  it("shows as sold exactly what its purchases bought: the summary, the ticket editor and the public page agree", async () => {
    const { db } = await getDatabase();
    await seedDemo(db);
    const [admin] = await db.select().from(users).where(eq(users.email, "admin@tribuna.ar"));
    const support = await ctxAs(actorFor(admin));
    const anyone = await ctxAs();
    let sold = 0;
    for (const organization of await db.select().from(organizations)) {
      const summary = await organizationSummary(support, organization.id);
      const listed = await listOrganizationEvents(support, { organizationId: organization.id, fromDate: null });
      // The summary's "Vendidas" of all events add up to its sales' tickets.
      expect(listed.reduce((n, e) => n + e.sold, 0)).toBe(summary.total.tickets);
      for (const event of listed) {
        const editor = await getEventForOrganizer(support, event.id);
        // The ticket editor's counters (the stock taken) are the tickets of real purchases: nothing held, no invitations.
        expect(editor.tickets.reduce((n, t) => n + t.sold, 0)).toBe(event.sold);
        const [issued] = await db.select({ n: sql<number>`count(*)::int` }).from(issuedProducts).where(and(eq(issuedProducts.eventId, event.id), eq(issuedProducts.status, "redeemable")));
        expect(issued.n).toBe(event.sold);
        const page = await getPublicEvent(anyone, event.slug, { presaleCode: "breshpre", accessCode: "amigosbresh" });
        for (const t of editor.tickets) {
          const shown = page.ticketTypes.find((p) => p.name === t.name);
          if (t.stock - t.sold <= 0) expect(shown?.state).toBe("sold_out");
          else expect(shown?.state).not.toBe("sold_out");
        }
        sold += event.sold;
      }
    }
    expect(sold).toBeGreaterThan(3000);
    // "Stand-up en La Plata": 250 of 250 in the summary, in the editor and "Agotado" on its page.
    const [standUp] = await db.select().from(events).where(eq(events.slug, "stand-up-la-plata"));
    const [delPlata] = await db.select().from(organizations).where(eq(organizations.slug, "producciones-del-plata"));
    const inSummary = (await listOrganizationEvents(support, { organizationId: delPlata.id, fromDate: null })).find((e) => e.id === standUp.id);
    expect(inSummary).toMatchObject({ sold: 250, stock: 250 });
    expect((await getEventForOrganizer(support, standUp.id)).tickets.map((t) => [t.sold, t.stock])).toEqual([[250, 250]]);
    expect((await getPublicEvent(anyone, "stand-up-la-plata")).ticketTypes.map((t) => t.state)).toEqual(["sold_out"]);
  });
});
