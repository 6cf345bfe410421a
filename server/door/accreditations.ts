import { and, asc, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { auditLog, doorScans, eventDates, events, issuedProducts, orders, ticketTypes, users } from "#server/db/schema";
import { Conflict, NotFound } from "#server/errors";
import { requireEvent } from "#server/events/events";
import { requireCapability } from "#server/organizations/permissions";
import { parseInput } from "#server/validation";
import { doorChanged } from "./changes";
import { TICKETS_ONLY } from "./search";
import type { DbOrTx } from "#server/db/client";
import { seatLabel } from "#common/seating";
import { csvRow, deviceLabel, fileDate, type CellValue, type Column } from "#server/csv/cells";

const uuid = z.string().uuid("No encontramos ese evento.");

const filterSchema = z.object({
  organizationId: z.string().uuid("No encontramos la organización."),
  eventId: uuid.nullish(),
  eventDateId: z.string().uuid("No encontramos esa fecha.").nullish(),
  query: z.string().max(80).nullish(),
  page: z.number().int().min(0).max(100_000).nullish(),
  limit: z.number().int().min(1).max(100).nullish(),
});

export type AccreditationFilter = z.input<typeof filterSchema>;

export interface Accreditation {
  issuedProductId: string;
  holderName: string;
  ticketTypeName: string;
  /** Reserved seating (docs/seating.md): the seat printed on the ticket; all null for general admission. */
  seatSection: string | null;
  seatRow: string | null;
  seatNumber: string | null;
  orderCode: string;
  eventName: string;
  eventDateStartsAt: Date;
  redeemedAt: Date;
  door: string | null;
  deviceId: string | null;
  /** Who scanned: the member's name, "PIN de puerta" for staff without an account, null when unknown. */
  scannedBy: string | null;
  offline: boolean;
}

export const ACCREDITATION_COLUMNS: Column[] = [
  { name: "Ingreso", kind: "date" },
  { name: "Titular", kind: "text" },
  { name: "Tipo de entrada", kind: "text" },
  { name: "Compra", kind: "text" },
  { name: "Evento", kind: "text" },
  { name: "Fecha del evento", kind: "date" },
  { name: "Puerta", kind: "text" },
  { name: "Dispositivo", kind: "text" },
  { name: "Acreditó", kind: "text" },
  { name: "Sin conexión", kind: "text" },
  // Last, so the columns organizers' sheets already read by position stay where they were (decision 232).
  { name: "Ubicación", kind: "text" },
];

/**
 * One accreditation as spreadsheet cells (the CSV here and the streamed export of /organizacion/informes). The
 * device shows as a short label made from its id ("Dispositivo 3F9A", server/csv/cells.ts), never the raw id.
 */
export function accreditationCells(a: Accreditation): CellValue[] {
  return [a.redeemedAt, a.holderName, a.ticketTypeName, a.orderCode, a.eventName, a.eventDateStartsAt, a.door ?? "", deviceLabel(a.deviceId), a.scannedBy ?? "", a.offline ? "Sí" : "No", accreditationSeat(a) ?? ""];
}

/** "Platea · Fila F · Asiento 12" for a seated ticket, else null (general admission). */
export function accreditationSeat(a: Pick<Accreditation, "seatSection" | "seatRow" | "seatNumber">): string | null {
  return seatLabel({ section: a.seatSection, row: a.seatRow, number: a.seatNumber });
}

// The scan that let the ticket in (the latest admitted one: an undone redemption may have been admitted again).
const admittingScan = sql`(select ds.id from ${doorScans} ds where ds.issued_product_id = ${issuedProducts.id} and ds.outcome = 'admitted' order by ds.scanned_at desc limit 1)`;

function accreditationsSelect<Extra extends Record<string, SQL>>(db: DbOrTx, extra?: Extra) {
  return db
    .select({
      ...(extra as Extra),
      issuedProductId: issuedProducts.id,
      holderName: issuedProducts.holderName,
      ticketTypeName: ticketTypes.name,
      seatSection: issuedProducts.seatSection,
      seatRow: issuedProducts.seatRow,
      seatNumber: issuedProducts.seatNumber,
      orderCode: orders.code,
      eventName: events.name,
      eventDateStartsAt: eventDates.startsAt,
      redeemedAt: issuedProducts.redeemedAt,
      door: issuedProducts.redeemedDoor,
      deviceId: doorScans.deviceId,
      scannedBy: sql<string | null>`case when ${doorScans.pinSessionId} is not null then 'PIN de puerta' when ${users.id} is not null then trim(${users.firstName} || ' ' || ${users.lastName}) end`,
      offline: sql<boolean>`coalesce(${doorScans.offline}, false)`,
    })
    .from(issuedProducts)
    .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
    .innerJoin(events, eq(events.id, issuedProducts.eventId))
    .innerJoin(eventDates, eq(eventDates.id, orders.eventDateId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, issuedProducts.ticketTypeId))
    .leftJoin(doorScans, sql`${doorScans.id} = ${admittingScan}`)
    .leftJoin(users, eq(users.id, doorScans.userId));
}

async function query(ctx: Ctx, rawFilter: unknown, paging: { page: number; limit: number } | null) {
  const filter = parseInput(filterSchema, rawFilter);
  await requireCapability(ctx, filter.organizationId, "sales:read");
  const q = filter.query?.replace(/\s+/g, " ").trim() ?? "";
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = and(
    eq(events.organizationId, filter.organizationId),
    eq(issuedProducts.status, "redeemed"),
    TICKETS_ONLY,
    filter.eventId ? eq(issuedProducts.eventId, filter.eventId) : undefined,
    filter.eventDateId ? eq(orders.eventDateId, filter.eventDateId) : undefined,
    q.length >= 2 ? or(ilike(issuedProducts.holderName, like), eq(orders.code, q.toUpperCase()), ilike(issuedProducts.redeemedDoor, like)) : undefined,
  );
  const base = accreditationsSelect(ctx.db)
    .where(where)
    .orderBy(desc(issuedProducts.redeemedAt), desc(issuedProducts.id));
  if (!paging) return { items: (await base.limit(50_000)) as Accreditation[], total: 0 };
  const [items, [{ total }]] = await Promise.all([
    base.limit(paging.limit).offset(paging.page * paging.limit),
    ctx.db
      .select({ total: sql<number>`count(*)::int` })
      .from(issuedProducts)
      .innerJoin(orders, eq(orders.id, issuedProducts.orderId))
      .innerJoin(events, eq(events.id, issuedProducts.eventId))
      .where(where),
  ]);
  return { items: items as Accreditation[], total };
}

/** `/organizacion/acreditaciones`: who entered, when, through which door and device, newest first. Needs sales:read. */
export async function listAccreditations(ctx: Ctx, rawFilter: AccreditationFilter) {
  const page = rawFilter.page ?? 0;
  const limit = rawFilter.limit ?? 50;
  const { items, total } = await query(ctx, rawFilter, { page, limit });
  // The device as people read it (the same label as the CSV's), next to its raw id.
  return { items: items.map((a) => ({ ...a, deviceLabel: deviceLabel(a.deviceId), seatLabel: accreditationSeat(a) })), total, page, limit };
}

/**
 * The same list as CSV (UTF-8 with BOM, so Excel reads the accents), every row, and the file's name:
 * "acreditaciones-{event's slug}-{Buenos Aires day}.csv" when an event is picked, else without the slug.
 */
export async function accreditationsCsv(ctx: Ctx, rawFilter: AccreditationFilter): Promise<{ csv: string; filename: string }> {
  const { items } = await query(ctx, rawFilter, null);
  const header = ACCREDITATION_COLUMNS.map((c) => ({ name: c.name, kind: "text" as const }));
  const lines = items.map((a) => csvRow(ACCREDITATION_COLUMNS, accreditationCells(a)));
  const [event] = rawFilter.eventId && z.string().uuid().safeParse(rawFilter.eventId).success ? await ctx.db.select({ slug: events.slug }).from(events).where(and(eq(events.id, rawFilter.eventId), eq(events.organizationId, rawFilter.organizationId))) : [];
  const filename = `${["acreditaciones", event?.slug, fileDate(ctx.now)].filter(Boolean).join("-")}.csv`;
  return { csv: `\uFEFF${csvRow(header, ACCREDITATION_COLUMNS.map((c) => c.name))}${lines.join("")}`, filename };
}

/**
 * One page of an organization's accreditations in the order they happened,
 * after the keyset `cursor` (redeemed at, ticket id): the streamed export of
 * /organizacion/informes (server/reports/exports.ts), which checked the
 * member may read sales.
 */
export async function accreditationsPage(db: DbOrTx, scope: { organizationId: string; eventId: string | null }, cursor: { at: string; id: string } | null, limit: number) {
  const rows = await accreditationsSelect(db, { keyAt: sql<string>`${issuedProducts.redeemedAt}::text` })
    .where(
      and(
        eq(events.organizationId, scope.organizationId),
        eq(issuedProducts.status, "redeemed"),
        TICKETS_ONLY,
        scope.eventId ? eq(issuedProducts.eventId, scope.eventId) : undefined,
        cursor ? sql`${issuedProducts.redeemedAt} >= ${cursor.at}::timestamptz and (${issuedProducts.redeemedAt}, ${issuedProducts.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(issuedProducts.redeemedAt), asc(issuedProducts.id))
    .limit(limit);
  return rows as (Accreditation & { keyAt: string })[];
}

/**
 * Undoes a redemption (someone let in by mistake, a wrong ticket scanned):
 * the ticket can enter again. Owners and admins; recorded in the audit log.
 */
export async function undoRedemption(ctx: Ctx, input: { issuedProductId: string; reason?: string | null }) {
  if (!z.string().uuid().safeParse(input.issuedProductId).success) throw new NotFound("No encontramos esa entrada.");
  const [ticket] = await ctx.db.select().from(issuedProducts).where(eq(issuedProducts.id, input.issuedProductId));
  if (!ticket) throw new NotFound("No encontramos esa entrada.");
  const event = await requireEvent(ctx, ticket.eventId, "door:undo");
  const reason = input.reason?.replace(/\s+/g, " ").trim().slice(0, 300) || null;
  await ctx.db.transaction(async (tx) => {
    const [undone] = await tx
      .update(issuedProducts)
      .set({ status: "redeemable", redeemedAt: null, redeemedDoor: null })
      .where(and(eq(issuedProducts.id, ticket.id), eq(issuedProducts.status, "redeemed")))
      .returning({ id: issuedProducts.id });
    if (!undone) throw new Conflict("Esta entrada no figura como ingresada.");
    await tx.insert(auditLog).values({
      actorId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
      action: "door.undo-redemption",
      targetId: ticket.id,
      data: { organizationId: event.organizationId, eventId: event.id, redeemedAt: ticket.redeemedAt?.toISOString() ?? null, door: ticket.redeemedDoor, reason },
      createdAt: ctx.now,
    });
  });
  doorChanged(event.id);
}
