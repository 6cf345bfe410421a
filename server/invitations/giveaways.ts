import type { EventDateRow, EventRow, GiveawayLineRow, GiveawayRow, TicketTypeRow } from "#server/db/schema";
import crypto from "node:crypto";
import { parse } from "csv-parse/sync";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { MAX_GIVEAWAY_ROWS, MAX_INVITATION_QTY } from "#common/invitations";
import { emailSchema } from "#common/validation";
import type { Ctx } from "#server/context";
import type { Db, DbOrTx } from "#server/db/client";
import { isUniqueViolation } from "#server/db/errors";
import { eventDates, events, giveawayRows, giveaways, orders, ticketTypes } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { requireEvent } from "#server/events/events";
import { enqueue } from "#server/jobs/queue";
import { parseInput, type DomainInput } from "#server/validation";
import { seatingOfTicketType } from "#server/seating/claims";
import { guestDocumentSchema, guestNameSchema, invitationDate, invitationTarget, issueGiftOrder } from "./invitations";

/*
 * Giveaway in bulk (`/organizacion/evento/enviar-tickets/{slug}`,
 * docs/invitations.md): a CSV of guests is checked row by row on upload and
 * kept as a preview; nothing is sent until the organizer confirms. Sending
 * runs in the job queue, one gift order per row, each in its own transaction.
 *
 * Never twice: every giveaway order carries the key (event, email, ticket
 * type) in `orders.gift_key`, unique per event. A row already sent (this
 * file uploaded again, another file with the same person, a job retried
 * after a crash) finds its key taken and is marked `skipped`.
 */

export const SEND_GIVEAWAY_JOB = "send-giveaway";
export const MAX_GIVEAWAY_BYTES = 2 * 1024 * 1024;
/** Rows one job run sends before queueing the next run: each run stays far below the queue's lock timeout. */
const ROWS_PER_RUN = 500;
/** Rows sent per transaction: fewer commits; the stock row is held for at most this many rows. */
const ROWS_PER_TRANSACTION = 25;

export const GIVEAWAY_MESSAGES = {
  empty: "El archivo está vacío.",
  tooBig: "El archivo pesa más de 2 MB. Partilo en varios.",
  tooManyRows: `Hasta ${MAX_GIVEAWAY_ROWS.toLocaleString("es-AR")} filas por archivo. Partilo en varios.`,
  unreadable: "No pudimos leer el archivo como CSV. Guardalo desde tu planilla como «CSV (delimitado por comas)».",
  header: "La primera fila tiene que tener los títulos: email, nombre, apellido, dni, cantidad, tipo de entrada.",
  missingColumn: (name: string) => `Falta la columna «${name}» en la primera fila.`,
  email: "El email no es válido.",
  firstName: "Falta el nombre.",
  lastName: "Falta el apellido.",
  name: "El nombre o el apellido tiene más de 80 caracteres o caracteres raros.",
  document: "El DNI no es válido (de 5 a 11 letras o números).",
  qty: `La cantidad tiene que ser un número entero entre 1 y ${MAX_INVITATION_QTY}.`,
  unknownTicket: (name: string) => (name ? `No hay un tipo de entrada «${name}» en este evento.` : "Falta el tipo de entrada (el evento tiene más de uno)."),
  ticketOtherDate: (name: string) => `«${name}» es de otra fecha del evento.`,
  duplicate: (line: number) => `Fila repetida: el mismo email y tipo de entrada ya están en la fila ${line}.`,
  alreadySent: "Ya le mandamos este tipo de entrada a este email: no se manda de nuevo.",
  sentMeanwhile: "Ya se le había mandado (en otra carga o en un reintento): no se mandó de nuevo.",
  notEnough: (name: string, left: number) => (left > 0 ? `No alcanza el stock de ${name}: ${left === 1 ? "queda 1" : `quedan ${left}`} para las filas anteriores.` : `No queda stock de ${name}.`),
  notFound: "No encontramos esa carga.",
  notPreview: "Esta carga ya se está mandando o ya se mandó.",
  nothingToSend: "No hay ninguna fila lista para mandar. Corregí el archivo y subilo de nuevo.",
} as const;

/** Column titles people write in a spreadsheet, without accents, lowercase, spaces collapsed. */
const COLUMN_ALIASES: Record<"email" | "firstName" | "lastName" | "documentNumber" | "qty" | "ticketType", string[]> = {
  email: ["email", "e-mail", "mail", "correo", "correo electronico"],
  firstName: ["nombre", "nombres", "first name", "firstname"],
  lastName: ["apellido", "apellidos", "last name", "lastname"],
  documentNumber: ["dni", "documento", "numero de documento", "nro de documento", "document number", "document"],
  qty: ["cantidad", "cant", "qty", "quantity", "entradas"],
  ticketType: ["tipo de entrada", "tipo", "entrada", "ticket", "ticket type", "tipo de ticket"],
};

const normalizeTitle = (v: string) => v.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/[._]/g, " ").replace(/\s+/g, " ").trim();

const ticketKey = (v: string) => normalizeTitle(v);

/** The key that makes a giveaway send a person's tickets of one type once per event. */
export function giveawayGiftKey(email: string, ticketTypeId: string): string {
  return crypto.createHash("sha256").update(`giveaway:${email.toLowerCase()}:${ticketTypeId}`).digest("base64url");
}

export interface CheckedRow {
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  documentNumber: string;
  qty: number;
  ticketTypeId: string | null;
  ticketTypeName: string;
  status: "invalid" | "ready" | "skipped";
  error: string | null;
}

/** Reads the CSV (comma or semicolon, as Argentine Excel saves it; BOM or not) into records keyed by our column names. */
export function readGiveawayCsv(text: string): { line: number; values: Record<keyof typeof COLUMN_ALIASES, string> }[] {
  if (Buffer.byteLength(text) > MAX_GIVEAWAY_BYTES) throw new Invalid({ file: [GIVEAWAY_MESSAGES.tooBig] });
  if (!text.trim()) throw new Invalid({ file: [GIVEAWAY_MESSAGES.empty] });
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: [",", ";"],
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch {
    throw new Invalid({ file: [GIVEAWAY_MESSAGES.unreadable] });
  }
  const [header, ...body] = records;
  if (!header) throw new Invalid({ file: [GIVEAWAY_MESSAGES.empty] });
  const titles = header.map(normalizeTitle);
  const index = {} as Record<keyof typeof COLUMN_ALIASES, number>;
  for (const [key, aliases] of Object.entries(COLUMN_ALIASES) as [keyof typeof COLUMN_ALIASES, string[]][]) index[key] = titles.findIndex((t) => aliases.includes(t));
  if (index.email < 0 && index.firstName < 0) throw new Invalid({ file: [GIVEAWAY_MESSAGES.header] });
  for (const [key, title] of [
    ["email", "email"],
    ["firstName", "nombre"],
    ["lastName", "apellido"],
  ] as const) {
    if (index[key] < 0) throw new Invalid({ file: [GIVEAWAY_MESSAGES.missingColumn(title)] });
  }
  if (body.length > MAX_GIVEAWAY_ROWS) throw new Invalid({ file: [GIVEAWAY_MESSAGES.tooManyRows] });
  return body
    .map((cells, i) => ({
      line: i + 2,
      values: Object.fromEntries((Object.keys(COLUMN_ALIASES) as (keyof typeof COLUMN_ALIASES)[]).map((k) => [k, index[k] >= 0 ? cells[index[k]] ?? "" : ""])) as Record<
        keyof typeof COLUMN_ALIASES,
        string
      >,
    }))
    .filter((r) => Object.values(r.values).some((v) => v !== ""));
}

/**
 * Every row's verdict, in file order: its own errors first (email, names,
 * DNI, quantity, ticket type), then repeated (email, ticket type) pairs, then
 * already sent by an earlier giveaway, then stock: rows take what is left in
 * file order and the first that does not fit, and every later one of that
 * ticket type that does not, get the stock error.
 */
export function checkGiveawayRows(
  records: ReturnType<typeof readGiveawayCsv>,
  tickets: (Pick<TicketTypeRow, "id" | "name" | "eventDateId"> & {
    left: number;
  })[],
  date: Pick<EventDateRow, "id">,
  alreadySentKeys: Set<string>
): CheckedRow[] {
  const byName = new Map(tickets.map((t) => [ticketKey(t.name), t]));
  const seen = new Map<string, number>();
  const left = new Map(tickets.map((t) => [t.id, t.left]));
  return records.map(({ line, values }) => {
    const row: CheckedRow = {
      line,
      email: values.email.toLowerCase(),
      firstName: values.firstName,
      lastName: values.lastName,
      documentNumber: values.documentNumber,
      qty: 1,
      ticketTypeId: null,
      ticketTypeName: values.ticketType,
      status: "invalid",
      error: null,
    };
    const fail = (error: string, status: CheckedRow["status"] = "invalid") => ({
      ...row,
      status,
      error,
    });
    const email = emailSchema.safeParse(values.email);
    if (!email.success) return fail(GIVEAWAY_MESSAGES.email);
    row.email = email.data;
    if (!values.firstName) return fail(GIVEAWAY_MESSAGES.firstName);
    if (!values.lastName) return fail(GIVEAWAY_MESSAGES.lastName);
    const first = guestNameSchema.safeParse(values.firstName);
    const last = guestNameSchema.safeParse(values.lastName);
    if (!first.success || !last.success) return fail(GIVEAWAY_MESSAGES.name);
    row.firstName = first.data;
    row.lastName = last.data;
    const document = guestDocumentSchema.safeParse(values.documentNumber);
    if (!document.success) return fail(GIVEAWAY_MESSAGES.document);
    row.documentNumber = document.data ?? "";
    const qty = values.qty === "" ? 1 : Number(values.qty);
    if (!Number.isInteger(qty) || qty < 1 || qty > MAX_INVITATION_QTY) return fail(GIVEAWAY_MESSAGES.qty);
    row.qty = qty;
    const ticket = values.ticketType ? byName.get(ticketKey(values.ticketType)) : tickets.length === 1 ? tickets[0] : undefined;
    if (!ticket) return fail(GIVEAWAY_MESSAGES.unknownTicket(values.ticketType));
    row.ticketTypeId = ticket.id;
    row.ticketTypeName = ticket.name;
    if (ticket.eventDateId && ticket.eventDateId !== date.id) return fail(GIVEAWAY_MESSAGES.ticketOtherDate(ticket.name));
    const pair = `${row.email}:${ticket.id}`;
    const earlier = seen.get(pair);
    if (earlier) return fail(GIVEAWAY_MESSAGES.duplicate(earlier));
    seen.set(pair, line);
    if (alreadySentKeys.has(giveawayGiftKey(row.email, ticket.id))) return fail(GIVEAWAY_MESSAGES.alreadySent, "skipped");
    const remaining = left.get(ticket.id) ?? 0;
    if (qty > remaining) return fail(GIVEAWAY_MESSAGES.notEnough(ticket.name, remaining));
    left.set(ticket.id, remaining - qty);
    return { ...row, status: "ready" };
  });
}

const previewSchema = z.object({
  eventId: z.uuid({ error: "Identificador inválido." }),
  eventDateId: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.uuid({ error: "Elegí la fecha a la que invitás." }).optional()),
  fileName: z.string().trim().max(200).default("invitados.csv"),
  csv: z.string({ error: GIVEAWAY_MESSAGES.empty }),
});

/**
 * `previewGiveaway`: reads and checks the CSV and keeps it as a preview
 * (nothing is sent). File-level problems (not a CSV, no header, too big) are
 * an Invalid on `file`; row problems are in the rows.
 */
export async function previewGiveaway(ctx: Ctx, rawInput: DomainInput<typeof previewSchema>): Promise<GiveawayRow> {
  const input = parseInput(previewSchema, rawInput);
  const { event, dates, tickets } = await invitationTarget(ctx, input.eventId, null);
  const date = invitationDate({ eventDateId: null }, dates, input.eventDateId, ctx.now);
  const records = readGiveawayCsv(input.csv);
  if (!records.length) throw new Invalid({ file: [GIVEAWAY_MESSAGES.empty] });
  const sentKeys = await ctx.db
    .select({ key: orders.giftKey })
    .from(orders)
    .where(and(eq(orders.eventId, event.id), sql`${orders.giftKey} is not null`));
  const checked = checkGiveawayRows(
    records,
    tickets.map((t) => ({
      id: t.id,
      name: t.name,
      eventDateId: t.eventDateId,
      left: Math.max(0, t.stock - t.sold),
    })),
    date,
    new Set(sentKeys.map((k) => k.key!))
  );
  return ctx.db.transaction(async (tx) => {
    const [giveaway] = await tx
      .insert(giveaways)
      .values({
        organizationId: event.organizationId,
        eventId: event.id,
        eventDateId: date.id,
        fileName: input.fileName || "invitados.csv",
        totalRows: checked.length,
        createdByUserId: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        createdAt: ctx.now,
      })
      .returning();
    for (let i = 0; i < checked.length; i += 1000) {
      await tx.insert(giveawayRows).values(checked.slice(i, i + 1000).map((r) => ({ ...r, giveawayId: giveaway.id })));
    }
    return giveaway;
  });
}

/** A giveaway of an event the actor manages. */
async function requireGiveaway(ctx: Ctx, giveawayId: string): Promise<GiveawayRow> {
  if (!z.uuid().safeParse(giveawayId).success) throw new NotFound(GIVEAWAY_MESSAGES.notFound);
  const [giveaway] = await ctx.db.select().from(giveaways).where(eq(giveaways.id, giveawayId));
  if (!giveaway) throw new NotFound(GIVEAWAY_MESSAGES.notFound);
  await requireEvent(ctx, giveaway.eventId, "events:manage");
  return giveaway;
}

/** `startGiveaway`: the preview confirmed; the job queue sends its ready rows. Only once: a second confirm is a Conflict. */
export async function startGiveaway(ctx: Ctx, giveawayId: string): Promise<GiveawayRow> {
  const giveaway = await requireGiveaway(ctx, giveawayId);
  const [{ ready }] = await ctx.db
    .select({ ready: count() })
    .from(giveawayRows)
    .where(and(eq(giveawayRows.giveawayId, giveaway.id), eq(giveawayRows.status, "ready")));
  if (!Number(ready)) throw new Conflict(GIVEAWAY_MESSAGES.nothingToSend);
  return ctx.db.transaction(async (tx) => {
    const [started] = await tx
      .update(giveaways)
      .set({ status: "sending", startedAt: ctx.now })
      .where(and(eq(giveaways.id, giveaway.id), eq(giveaways.status, "preview")))
      .returning();
    if (!started) throw new Conflict(GIVEAWAY_MESSAGES.notPreview);
    await enqueue(tx, SEND_GIVEAWAY_JOB, { giveawayId: giveaway.id }, ctx.now);
    return started;
  });
}

/**
 * The job: sends up to ROWS_PER_RUN ready rows, each in its own transaction
 * (gift order + the row marked sent, together), then queues the next run or
 * marks the giveaway done. Safe to run twice at once or again after a crash:
 * a row changes only from `ready`, and the gift key stops a second order.
 */
export async function runGiveaway(db: Db, giveawayId: string, now: Date): Promise<{ sent: number; skipped: number; failed: number; more: boolean }> {
  const [giveaway] = await db.select().from(giveaways).where(eq(giveaways.id, giveawayId));
  if (!giveaway || giveaway.status !== "sending") return { sent: 0, skipped: 0, failed: 0, more: false };
  const [event] = await db.select().from(events).where(eq(events.id, giveaway.eventId));
  const [date] = await db.select().from(eventDates).where(eq(eventDates.id, giveaway.eventDateId!));
  const rows = await db
    .select()
    .from(giveawayRows)
    .where(and(eq(giveawayRows.giveawayId, giveaway.id), eq(giveawayRows.status, "ready")))
    .orderBy(asc(giveawayRows.line))
    .limit(ROWS_PER_RUN + 1);
  const batch = rows.slice(0, ROWS_PER_RUN);
  const ticketIds = [...new Set(batch.map((r) => r.ticketTypeId!))];
  const tickets = ticketIds.length ? await db.select().from(ticketTypes).where(inArray(ticketTypes.id, ticketIds)) : [];
  const seatedTypes = new Set<string>();
  for (const t of tickets) if (await seatingOfTicketType(db, t.id)) seatedTypes.add(t.id);
  const result = {
    sent: 0,
    skipped: 0,
    failed: 0,
    more: rows.length > ROWS_PER_RUN,
  };
  // Rows go in transactions of ROWS_PER_TRANSACTION (one commit each); if one of them fails (a code
  // collision, a row another run took, the database), that group is done again row by row.
  // Reserved seating (docs/seating.md): a row of a seated type claims its seats before it takes the ticket
  // type's row, like a buyer; a group would hold that row from its earlier rows while waiting for a seat, so a
  // seated event sends one row per transaction.
  const perTransaction = tickets.some((t) => seatedTypes.has(t.id)) ? 1 : ROWS_PER_TRANSACTION;
  for (let i = 0; i < batch.length; i += perTransaction) {
    const group = batch.slice(i, i + perTransaction).map((row) => ({ row, ticket: tickets.find((t) => t.id === row.ticketTypeId) }));
    let outcomes: RowOutcome[];
    try {
      outcomes = await db.transaction(async (tx) => {
        const done: RowOutcome[] = [];
        for (const { row, ticket } of group) done.push(await sendGiveawayRow(tx, { giveaway, event, date, ticket, row, now }));
        return done;
      });
    } catch {
      outcomes = [];
      for (const { row, ticket } of group) outcomes.push(await sendGiveawayRowAlone(db, { giveaway, event, date, ticket, row, now }));
    }
    for (const outcome of outcomes) result[outcome]++;
  }
  if (result.more) await enqueue(db, SEND_GIVEAWAY_JOB, { giveawayId: giveaway.id }, now);
  else
    await db
      .update(giveaways)
      .set({ status: "done", finishedAt: now })
      .where(and(eq(giveaways.id, giveaway.id), eq(giveaways.status, "sending")));
  return result;
}

async function markRow(tx: DbOrTx, row: GiveawayLineRow, values: Partial<GiveawayLineRow>): Promise<boolean> {
  const changed = await tx
    .update(giveawayRows)
    .set(values)
    .where(and(eq(giveawayRows.id, row.id), eq(giveawayRows.status, "ready")))
    .returning({ id: giveawayRows.id });
  return changed.length > 0;
}

class RowTakenElsewhere extends Error {}

type RowOutcome = "sent" | "skipped" | "failed";
type RowInput = { giveaway: GiveawayRow; event: EventRow | undefined; date: EventDateRow | undefined; ticket: TicketTypeRow | undefined; row: GiveawayLineRow; now: Date };

/**
 * One row inside the caller's transaction: its gift order and the row marked
 * with the outcome, together. Throws RowTakenElsewhere when another run
 * already moved the row out of `ready` (the caller's transaction must then
 * roll back this order).
 */
async function sendGiveawayRow(tx: DbOrTx, input: RowInput): Promise<RowOutcome> {
  const { row, now } = input;
  if (!input.event || !input.date || !input.ticket || input.event.status === "deleted" || input.ticket.status === "deleted") {
    await markRow(tx, row, { status: "failed", error: "El evento o el tipo de entrada ya no existen." });
    return "failed";
  }
  const outcome = await issueGiftOrder(tx, {
    event: input.event,
    date: input.date,
    ticket: input.ticket,
    qty: row.qty,
    guest: { email: row.email, firstName: row.firstName, lastName: row.lastName, documentNumber: row.documentNumber || null },
    giftKey: giveawayGiftKey(row.email, input.ticket.id),
    invitedByUserId: input.giveaway.createdByUserId,
    now,
  });
  const values: Partial<GiveawayLineRow> =
    "order" in outcome
      ? { status: "sent", orderId: outcome.order.id, error: null }
      : "alreadySent" in outcome
      ? { status: "skipped", error: GIVEAWAY_MESSAGES.sentMeanwhile }
      : "noSeats" in outcome
      ? { status: "failed", error: outcome.noSeats }
      : { status: "failed", error: GIVEAWAY_MESSAGES.notEnough(outcome.short.name, outcome.short.left) };
  if (!(await markRow(tx, row, values))) throw new RowTakenElsewhere();
  return values.status as RowOutcome;
}

/** One row in its own transaction, drawing a new order code if two collided. */
async function sendGiveawayRowAlone(db: Db, input: RowInput): Promise<RowOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction((tx) => sendGiveawayRow(tx, input));
    } catch (error) {
      if (error instanceof RowTakenElsewhere) return "skipped";
      if (attempt < 3 && isUniqueViolation(error, "orders_code_key")) continue;
      throw error;
    }
  }
}

export interface GiveawayProgress {
  giveaway: GiveawayRow & { eventName: string; eventSlug: string };
  counts: Record<GiveawayLineRow["status"], number>;
  /** Rows the job has dealt with, of the `toSend` that were ready when it started. */
  done: number;
  toSend: number;
}

/** `giveaway`: a preview or a send in progress, with counts per row status. */
export async function getGiveaway(ctx: Ctx, giveawayId: string): Promise<GiveawayProgress> {
  const giveaway = await requireGiveaway(ctx, giveawayId);
  const [event] = await ctx.db.select({ name: events.name, slug: events.slug }).from(events).where(eq(events.id, giveaway.eventId));
  const grouped = await ctx.db.select({ status: giveawayRows.status, n: count() }).from(giveawayRows).where(eq(giveawayRows.giveawayId, giveaway.id)).groupBy(giveawayRows.status);
  const counts = { invalid: 0, ready: 0, sent: 0, skipped: 0, failed: 0 };
  for (const g of grouped) counts[g.status] = Number(g.n);
  // Rows skipped on upload (an earlier file sent them) never were to send; those the job skipped were.
  const [{ skippedBySend }] = await ctx.db
    .select({ skippedBySend: count() })
    .from(giveawayRows)
    .where(and(eq(giveawayRows.giveawayId, giveaway.id), eq(giveawayRows.status, "skipped"), eq(giveawayRows.error, GIVEAWAY_MESSAGES.sentMeanwhile)));
  const done = counts.sent + counts.failed + Number(skippedBySend);
  return {
    giveaway: {
      ...giveaway,
      eventName: event?.name ?? "",
      eventSlug: event?.slug ?? "",
    },
    counts,
    done,
    toSend: done + counts.ready,
  };
}

const rowsSchema = z.object({
  giveawayId: z.string(),
  status: z.enum(["invalid", "ready", "sent", "skipped", "failed"]).optional(),
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** `giveawayRows`: the rows of a giveaway in file order, optionally of one status (problems first is the page's choice). */
export async function listGiveawayRows(
  ctx: Ctx,
  rawInput: DomainInput<typeof rowsSchema>
): Promise<{
  items: GiveawayLineRow[];
  total: number;
  page: number;
  limit: number;
}> {
  const input = parseInput(rowsSchema, rawInput);
  const giveaway = await requireGiveaway(ctx, input.giveawayId);
  const where = and(eq(giveawayRows.giveawayId, giveaway.id), input.status ? eq(giveawayRows.status, input.status) : undefined);
  const [items, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(giveawayRows)
      .where(where)
      .orderBy(asc(giveawayRows.line))
      .limit(input.limit)
      .offset(input.page * input.limit),
    ctx.db.select({ total: count() }).from(giveawayRows).where(where),
  ]);
  return { items, total: Number(total), page: input.page, limit: input.limit };
}

/** The event's giveaways, newest first (the page lists them to reopen one). */
export async function listGiveaways(ctx: Ctx, eventId: string): Promise<GiveawayRow[]> {
  await requireEvent(ctx, eventId, "events:manage");
  return ctx.db.select().from(giveaways).where(eq(giveaways.eventId, eventId)).orderBy(desc(giveaways.createdAt)).limit(20);
}
