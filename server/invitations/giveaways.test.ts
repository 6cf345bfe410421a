import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { orders, ticketTypes } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { ctxAs } from "#tests/support/context";
import { hasPostgresServer } from "#tests/support/db";
import { createEventWithTickets } from "#tests/support/factories";
import { randomTag } from "#tests/support/random";
import { getGiveaway, GIVEAWAY_MESSAGES, listGiveawayRows, previewGiveaway, runGiveaway, startGiveaway } from "./giveaways";

async function giftOrdersOf(eventId: string) {
  const db = await getDb();
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.eventId, eventId), eq(orders.gift, true)));
}

async function soldOf(id: string) {
  const db = await getDb();
  const [row] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, id));
  return row.sold;
}

/** Runs the giveaway job until it says there is nothing more (each run queues the next in production). */
async function runToTheEnd(giveawayId: string) {
  const db = await getDb();
  for (;;) {
    const result = await runGiveaway(db, giveawayId, new Date());
    if (!result.more) return;
  }
}

describe("previewGiveaway", () => {
  it("reports every kind of bad row in Spanish, sends only the good ones, and nothing for the bad", async () => {
    const made = await createEventWithTickets([
      { name: "General", price: 1_000_000, stock: 100 },
      { name: "Prensa VIP", price: 2_000_000, stock: 3 },
    ]);
    const tag = randomTag(6);
    // Semicolons and a BOM, as Argentine Excel saves a CSV; titles with accents and capitals.
    const csv = [
      "\uFEFFCorreo;Nombre;Apellido;DNI;Cantidad;Tipo de entrada",
      `ana-${tag}@example.com;Ana;Gómez;30.123.456;2;general`,
      `no-es-un-email;Beto;Pérez;;1;General`,
      `carla-${tag}@example.com;;Díaz;;1;General`,
      `dario-${tag}@example.com;Darío;López;12;1;General`,
      `eva-${tag}@example.com;Eva;Ruiz;;0;General`,
      `fede-${tag}@example.com;Fede;Sosa;;1;Platea`,
      `ana-${tag}@example.com;Ana;Gómez;;1;General`,
      `gabi-${tag}@example.com;Gabi;Paz;;2;Prensa VIP`,
      `hugo-${tag}@example.com;Hugo;Vera;;2;Prensa VIP`,
      `ines-${tag}@example.com;Inés;Luna;;;prensa vip`,
    ].join("\r\n");
    const giveaway = await previewGiveaway(made.ctx, { eventId: made.event.id, fileName: "invitados.csv", csv });
    const { items } = await listGiveawayRows(made.ctx, { giveawayId: giveaway.id });
    expect(items.map((r) => [r.line, r.status, r.error])).toEqual([
      [2, "ready", null],
      [3, "invalid", GIVEAWAY_MESSAGES.email],
      [4, "invalid", GIVEAWAY_MESSAGES.firstName],
      [5, "invalid", GIVEAWAY_MESSAGES.document],
      [6, "invalid", GIVEAWAY_MESSAGES.qty],
      [7, "invalid", "No hay un tipo de entrada «Platea» en este evento."],
      [8, "invalid", "Fila repetida: el mismo email y tipo de entrada ya están en la fila 2."],
      [9, "ready", null],
      [10, "invalid", "No alcanza el stock de Prensa VIP: queda 1 para las filas anteriores."],
      [11, "ready", null],
    ]);
    expect(items[0]).toMatchObject({ firstName: "Ana", documentNumber: "30123456", qty: 2, ticketTypeName: "General" });
    // A preview sends nothing.
    expect(await giftOrdersOf(made.event.id)).toHaveLength(0);

    await startGiveaway(made.ctx, giveaway.id);
    await expect(startGiveaway(made.ctx, giveaway.id)).rejects.toMatchObject({ code: "CONFLICT", message: GIVEAWAY_MESSAGES.notPreview });
    await runToTheEnd(giveaway.id);
    const gifts = await giftOrdersOf(made.event.id);
    expect(gifts.map((o) => o.payer.email).sort()).toEqual([`ana-${tag}@example.com`, `gabi-${tag}@example.com`, `ines-${tag}@example.com`]);
    expect(await soldOf(made.tickets.General.id)).toBe(2);
    expect(await soldOf(made.tickets["Prensa VIP"].id)).toBe(3);
    const progress = await getGiveaway(made.ctx, giveaway.id);
    expect(progress).toMatchObject({ counts: { sent: 3, invalid: 7, ready: 0 }, done: 3, toSend: 3, giveaway: { status: "done" } });

    // The same file again: everyone who got tickets is skipped on upload, nothing is left to send.
    const again = await previewGiveaway(made.ctx, { eventId: made.event.id, csv });
    const rows = (await listGiveawayRows(made.ctx, { giveawayId: again.id })).items;
    expect(rows.filter((r) => r.status === "skipped").map((r) => r.line)).toEqual([2, 9, 11]);
    expect(rows.find((r) => r.line === 2)!.error).toBe(GIVEAWAY_MESSAGES.alreadySent);
    await expect(startGiveaway(made.ctx, again.id)).rejects.toMatchObject({ code: "CONFLICT", message: GIVEAWAY_MESSAGES.nothingToSend });
  });

  it("refuses files that are not a guest list, and strangers", async () => {
    const made = await createEventWithTickets();
    await expect(previewGiveaway(made.ctx, { eventId: made.event.id, csv: "" })).rejects.toMatchObject({ fieldErrors: { file: [GIVEAWAY_MESSAGES.empty] } });
    await expect(previewGiveaway(made.ctx, { eventId: made.event.id, csv: "hola,chau\n1,2\n" })).rejects.toMatchObject({ fieldErrors: { file: [GIVEAWAY_MESSAGES.header] } });
    await expect(previewGiveaway(made.ctx, { eventId: made.event.id, csv: "email,nombre\na@b.com,Ana\n" })).rejects.toMatchObject({
      fieldErrors: { file: [GIVEAWAY_MESSAGES.missingColumn("apellido")] },
    });
    await expect(previewGiveaway(made.ctx, { eventId: made.event.id, csv: 'email,nombre,apellido\n"a@b.com,Ana\n' })).rejects.toMatchObject({
      fieldErrors: { file: [GIVEAWAY_MESSAGES.unreadable] },
    });
    const stranger = await createEventWithTickets();
    await expect(previewGiveaway(stranger.ctx, { eventId: made.event.id, csv: "email,nombre,apellido\na@b.com,Ana,Gómez\n" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("runGiveaway", () => {
  it("run twice, or two runs at once, sends each person's tickets once", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 1000 }]);
    const tag = randomTag(6);
    const csv = ["email,nombre,apellido", ...Array.from({ length: 40 }, (_, i) => `p${i}-${tag}@example.com,Persona,Número`)].join("\n");
    const giveaway = await previewGiveaway(made.ctx, { eventId: made.event.id, csv });
    await startGiveaway(made.ctx, giveaway.id);
    const db = await getDb();
    // Two workers picking up the same job (a retry after a timeout), then a third run after both finished.
    await Promise.all([runGiveaway(db, giveaway.id, new Date()), runGiveaway(db, giveaway.id, new Date())]);
    await runGiveaway(db, giveaway.id, new Date());
    expect(await giftOrdersOf(made.event.id)).toHaveLength(40);
    expect(await soldOf(made.tickets.General.id)).toBe(40);
    expect((await getGiveaway(made.ctx, giveaway.id)).counts.sent).toBe(40);
  });

  it("5,000 rows are checked, sent in runs of 500 and counted", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 6000 }]);
    const tag = randomTag(6);
    const csv = [
      "email,nombre,apellido,dni,cantidad,tipo de entrada",
      ...Array.from({ length: 5000 }, (_, i) => `g${i}-${tag}@example.com,Invitada,Número ${i},${30_000_000 + i},1,General`),
    ].join("\n");
    const started = performance.now();
    const giveaway = await previewGiveaway(made.ctx, { eventId: made.event.id, csv });
    const previewMs = performance.now() - started;
    expect((await getGiveaway(made.ctx, giveaway.id)).counts.ready).toBe(5000);
    await startGiveaway(made.ctx, giveaway.id);
    const db = await getDb();
    const first = await runGiveaway(db, giveaway.id, new Date());
    expect(first).toMatchObject({ sent: 500, more: true });
    expect(await getGiveaway(made.ctx, giveaway.id)).toMatchObject({ done: 500, toSend: 5000 });
    await runToTheEnd(giveaway.id);
    console.log(`giveaway of 5.000 rows: preview ${Math.round(previewMs)} ms, whole send ${Math.round(performance.now() - started)} ms`);
    const [{ n }] = await db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.eventId, made.event.id), eq(orders.gift, true)));
    expect(n).toBe(5000);
    expect(await soldOf(made.tickets.General.id)).toBe(5000);
  }, 180_000);
});

describe.runIf(hasPostgresServer)("giveaway under contention", () => {
  it("a giveaway and 30 buyers at once for the last 20 units never oversell", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 20 }]);
    const tag = randomTag(6);
    const csv = ["email,nombre,apellido", ...Array.from({ length: 20 }, (_, i) => `c${i}-${tag}@example.com,Ana,Gómez`)].join("\n");
    const giveaway = await previewGiveaway(made.ctx, { eventId: made.event.id, csv });
    await startGiveaway(made.ctx, giveaway.id);
    const payer = { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    const db = await getDb();
    const [, ...sales] = await Promise.allSettled([
      runToTheEnd(giveaway.id),
      ...Array.from({ length: 30 }, async () =>
        createOrder(await ctxAs(), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.General.id, qty: 1 }], payer, paymentMethod: "MERCADO_PAGO" })
      ),
    ]);
    const sold = sales.filter((s) => s.status === "fulfilled").length;
    const { counts } = await getGiveaway(made.ctx, giveaway.id);
    expect(counts.sent + sold).toBe(20);
    expect(counts.sent + counts.failed).toBe(20);
    expect(await soldOf(made.tickets.General.id)).toBe(20);
    const [{ n }] = await db.select({ n: count() }).from(orders).where(eq(orders.eventId, made.event.id));
    expect(n).toBe(20);
  });
});
