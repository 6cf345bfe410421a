import type { TicketTypeRow } from "#server/db/schema";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { MENU_CATEGORY_LABELS } from "#common/menu";
import { optional, requiredText } from "#common/validation";
import type { Ctx } from "#server/context";
import { events, MENU_CATEGORIES, ticketTypes, type MenuCategory } from "#server/db/schema";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { eventChanged } from "#server/events/changes";
import { requireEvent } from "#server/events/events";
import { intSchema, moneySchema, statusSchema } from "#server/events/schemas";
import { storedImageUrlSchema } from "#server/media/images";
import { previewOrder, type OrderPreview } from "#server/orders/preview";
import { stockAtLeastSold } from "#server/stock/stock";
import { parseInput, type DomainInput } from "#server/validation";

/*
 * The event's menu (decision 106): consumables — drinks,
 * food, combos — kept as products of the event in `ticket_types` with
 * `kind = 'menu'`, so buying one takes the same stock hold, order, billing,
 * payment, expiry, webhook and refund path as a ticket, and each unit is an
 * issued product with its own QR, redeemed at the bar. Everything here reads
 * and writes only `kind = 'menu'` rows; the ticket functions only `ticket`.
 */

export const MENU_MESSAGES = {
  notFound: "No encontramos esa consumición.",
  category: "Elegí si es bebida, comida o combo.",
  stockBelowSold: "El stock no puede ser menor a lo ya vendido.",
} as const;

const uuid = z.uuid({ error: "Identificador inválido." });
const booleanish = z.union([z.boolean(), z.string()]).transform((v) => v === true || v === "on" || v === "true");

const menuItemFields = {
  name: requiredText().refine((v) => v.length <= 80, "Usá hasta 80 caracteres"),
  description: z.string().trim().max(500, "Usá hasta 500 caracteres").default(""),
  category: z.enum(MENU_CATEGORIES, { error: MENU_MESSAGES.category }),
  price: moneySchema,
  stock: intSchema(0, 1_000_000),
  maxPerOrder: intSchema(1, 100).default(10),
  imageUrl: optional(storedImageUrlSchema),
  /** Visible on /menu/{slug}; hidden items cannot be bought. */
  visible: booleanish.default(true),
};

export const createMenuItemSchema = z.object({ eventId: uuid, ...menuItemFields });
/** Fields left out keep their value (the back-office form sends them all). */
export const updateMenuItemSchema = z.object({
  id: uuid,
  name: menuItemFields.name.optional(),
  description: z.string().trim().max(500, "Usá hasta 500 caracteres").optional(),
  category: menuItemFields.category.optional(),
  price: moneySchema.optional(),
  stock: intSchema(0, 1_000_000).optional(),
  maxPerOrder: intSchema(1, 100).optional(),
  imageUrl: optional(storedImageUrlSchema).nullable(),
  visible: booleanish.optional(),
});

export interface MenuItemView {
  id: string;
  eventId: string;
  name: string;
  description: string;
  category: MenuCategory;
  categoryLabel: string;
  price: number;
  stock: number;
  sold: number;
  available: number;
  maxPerOrder: number;
  imageUrl: string | null;
  visible: boolean;
  status: TicketTypeRow["status"];
  sortOrder: number;
}

export function toMenuItemView(row: TicketTypeRow): MenuItemView {
  const category = row.menuCategory ?? "drink";
  return {
    id: row.id,
    eventId: row.eventId,
    name: row.name,
    description: row.description,
    category,
    categoryLabel: MENU_CATEGORY_LABELS[category],
    price: row.price,
    stock: row.stock,
    sold: row.sold,
    available: Math.max(0, row.stock - row.sold),
    maxPerOrder: row.maxPerOrder,
    imageUrl: row.imageUrl,
    visible: !row.hidden,
    status: row.status,
    sortOrder: row.sortOrder,
  };
}

/** A menu item of an event the actor manages. */
async function requireMenuItem(ctx: Ctx, id: string): Promise<TicketTypeRow> {
  if (!uuid.safeParse(id).success) throw new NotFound(MENU_MESSAGES.notFound);
  const [row] = await ctx.db
    .select()
    .from(ticketTypes)
    .where(and(eq(ticketTypes.id, id), eq(ticketTypes.kind, "menu")));
  if (!row || row.status === "deleted") throw new NotFound(MENU_MESSAGES.notFound);
  await requireEvent(ctx, row.eventId, "events:manage");
  return row;
}

function columnsOf(data: z.output<typeof createMenuItemSchema>) {
  return {
    name: data.name,
    description: data.description,
    menuCategory: data.category,
    price: data.price,
    maxPerOrder: data.maxPerOrder,
    imageUrl: data.imageUrl ?? null,
    hidden: !data.visible,
  };
}

/** `createMenuItem`: a consumable on the event's menu, last in the order. */
export async function createMenuItem(ctx: Ctx, rawInput: DomainInput<typeof createMenuItemSchema>): Promise<MenuItemView> {
  const data = parseInput(createMenuItemSchema, rawInput);
  await requireEvent(ctx, data.eventId, "events:manage");
  const [{ next }] = await ctx.db
    .select({ next: sql<number>`coalesce(max(${ticketTypes.sortOrder}) + 1, 0)::int` })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, data.eventId), eq(ticketTypes.kind, "menu")));
  const [row] = await ctx.db
    .insert(ticketTypes)
    .values({ eventId: data.eventId, kind: "menu", ...columnsOf(data), stock: data.stock, minPerOrder: 1, sortOrder: next, createdAt: ctx.now, updatedAt: ctx.now })
    .returning();
  eventChanged(row.eventId);
  return toMenuItemView(row);
}

/** `updateMenuItem`: stock never below what is sold or held (checked in the UPDATE itself, as for tickets). */
export async function updateMenuItem(ctx: Ctx, rawInput: DomainInput<typeof updateMenuItemSchema>): Promise<MenuItemView> {
  const data = parseInput(updateMenuItemSchema, rawInput);
  const current = toMenuItemView(await requireMenuItem(ctx, data.id));
  const merged = {
    name: data.name ?? current.name,
    description: data.description ?? current.description,
    category: data.category ?? current.category,
    price: data.price ?? current.price,
    maxPerOrder: data.maxPerOrder ?? current.maxPerOrder,
    imageUrl: data.imageUrl === undefined ? (current.imageUrl ?? undefined) : (data.imageUrl ?? undefined),
    visible: data.visible ?? current.visible,
  };
  const stock = data.stock ?? current.stock;
  const [row] = await ctx.db
    .update(ticketTypes)
    .set({ ...columnsOf({ ...merged, eventId: current.eventId, stock }), stock, updatedAt: ctx.now })
    .where(and(eq(ticketTypes.id, data.id), stockAtLeastSold(stock)))
    .returning();
  if (!row) throw new Invalid({ stock: [MENU_MESSAGES.stockBelowSold] });
  eventChanged(row.eventId);
  return toMenuItemView(row);
}

const setMenuItemStatusSchema = z.object({ id: uuid, status: statusSchema });

/** `setMenuItemStatus`: pause (not sold for now), resume, or delete (gone from the menu; sold units stay valid). */
export async function setMenuItemStatus(ctx: Ctx, rawInput: DomainInput<typeof setMenuItemStatusSchema>): Promise<MenuItemView> {
  const data = parseInput(setMenuItemStatusSchema, rawInput);
  await requireMenuItem(ctx, data.id);
  const [row] = await ctx.db.update(ticketTypes).set({ status: data.status, updatedAt: ctx.now }).where(eq(ticketTypes.id, data.id)).returning();
  eventChanged(row.eventId);
  return toMenuItemView(row);
}

const reorderMenuSchema = z.object({ eventId: uuid, ids: z.array(uuid).max(500) });

/** `reorderMenu`: the menu in this order (ids of the event's items; any left out keep their place after these). */
export async function reorderMenu(ctx: Ctx, rawInput: DomainInput<typeof reorderMenuSchema>): Promise<MenuItemView[]> {
  const data = parseInput(reorderMenuSchema, rawInput);
  await requireEvent(ctx, data.eventId, "events:manage");
  const items = await menuRows(ctx, data.eventId);
  const wanted = data.ids.filter((id) => items.some((i) => i.id === id));
  const order = [...wanted, ...items.map((i) => i.id).filter((id) => !wanted.includes(id))];
  await ctx.db.transaction(async (tx) => {
    for (const [index, id] of order.entries()) await tx.update(ticketTypes).set({ sortOrder: index, updatedAt: ctx.now }).where(eq(ticketTypes.id, id));
  });
  eventChanged(data.eventId);
  return (await menuRows(ctx, data.eventId)).map(toMenuItemView);
}

const moveMenuItemSchema = z.object({ id: uuid, direction: z.enum(["up", "down"], { error: "Elegí subir o bajar." }) });

/** `moveMenuItem`: one place up or down in the menu as it is now (the back office's arrows). */
export async function moveMenuItem(ctx: Ctx, rawInput: DomainInput<typeof moveMenuItemSchema>): Promise<MenuItemView[]> {
  const data = parseInput(moveMenuItemSchema, rawInput);
  const item = await requireMenuItem(ctx, data.id);
  const ids = (await menuRows(ctx, item.eventId)).map((r) => r.id);
  const at = ids.indexOf(item.id);
  const to = data.direction === "up" ? at - 1 : at + 1;
  if (to >= 0 && to < ids.length) [ids[at], ids[to]] = [ids[to], ids[at]];
  return reorderMenu(ctx, { eventId: item.eventId, ids });
}

async function menuRows(ctx: Ctx, eventId: string): Promise<TicketTypeRow[]> {
  return ctx.db
    .select()
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.kind, "menu"), ne(ticketTypes.status, "deleted")))
    .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt));
}

/** `menuItems` for the back office: every item not deleted, with sold counts, paused and hidden ones included. */
export async function listMenuItems(ctx: Ctx, eventId: string): Promise<MenuItemView[]> {
  await requireEvent(ctx, eventId, "sales:read");
  return (await menuRows(ctx, eventId)).map(toMenuItemView);
}

/**
 * `/menu/{slug}` and `menu(slug)`: what a buyer can order now — visible,
 * active items of a published, active event — or null when the event does
 * not exist for buyers.
 */
export async function publicMenu(
  ctx: Ctx,
  slug: string,
): Promise<{ event: { id: string; slug: string; name: string; imageUrl: string | null; serviceFeeBps: number }; items: MenuItemView[] } | null> {
  const [event] = await ctx.db.select().from(events).where(eq(events.slug, slug.toLowerCase()));
  if (!event || !event.publishedAt || event.status === "deleted") return null;
  const rows = event.status === "active" ? (await menuRows(ctx, event.id)).filter((r) => r.status === "active" && !r.hidden) : [];
  // The event's service fee is charged on the menu too: the menu page shows each item's final price (docs/prices.md).
  return { event: { id: event.id, slug: event.slug, name: event.name, imageUrl: event.imageUrl, serviceFeeBps: event.serviceFeeBps ?? 0 }, items: rows.map(toMenuItemView) };
}

/**
 * Whether the event's menu has something a buyer can order now (visible,
 * active, with stock left): the event page links to `/menu/{slug}` only then.
 */
export async function menuOnSale(ctx: Ctx, eventId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.kind, "menu"), eq(ticketTypes.status, "active"), eq(ticketTypes.hidden, false), sql`${ticketTypes.stock} > ${ticketTypes.sold}`))
    .limit(1);
  return Boolean(row);
}

export const MENU_CART_MESSAGES = {
  empty: "Elegí al menos una consumición.",
  changed: "Algunas cosas del menú cambiaron (sin stock o pausadas): revisá tu compra.",
  tooMany: (name: string, max: number) => `De «${name}» podés pedir hasta ${max}.`,
} as const;

/** How many of an item one order can take now: its per-order limit and what is left. */
export function maxOrderable(item: Pick<MenuItemView, "available" | "maxPerOrder">): number {
  return Math.max(0, Math.min(item.available, item.maxPerOrder));
}

/**
 * A saved menu cart against the menu as it is now: only items still on it,
 * quantities cut to what can be ordered; `changed` when anything was cut
 * (createOrder checks again, with the stock hold as the truth).
 */
export function menuCartLines(items: MenuItemView[], cart: { ticketId: string; qty: number }[]) {
  let changed = false;
  const lines = cart.flatMap((entry) => {
    const item = items.find((i) => i.id === entry.ticketId);
    const qty = item ? Math.min(entry.qty, maxOrderable(item)) : 0;
    if (!item || qty !== entry.qty) changed = true;
    return item && qty > 0 ? [{ item, qty }] : [];
  });
  return { lines, changed };
}

/** What a buyer picked on the menu: every quantity within what can be ordered, and at least one item. */
export function checkMenuPick(items: MenuItemView[], picked: { ticketId: string; qty: number }[]): string[] {
  const errors = picked.flatMap((p) => {
    const item = items.find((i) => i.id === p.ticketId);
    return item && p.qty > maxOrderable(item) ? [MENU_CART_MESSAGES.tooMany(item.name, maxOrderable(item))] : [];
  });
  if (!errors.length && !picked.some((p) => p.qty > 0)) errors.push(MENU_CART_MESSAGES.empty);
  return errors;
}

/**
 * The menu's payer step priced by the domain: `previewOrder`, the same
 * preview the tickets' payer page uses and createOrder builds on, so the
 * buyer reads the lines, the service fee, the total and the hold before
 * paying, and the checkout never adds anything new. A refusal (an item
 * sold out or paused meanwhile, the event paused) comes back as its
 * messages instead of a price.
 */
export async function previewMenuOrder(
  ctx: Ctx,
  slug: string,
  lines: { ticketId: string; qty: number }[],
): Promise<{ ok: true; preview: OrderPreview } | { ok: false; problems: string[] }> {
  try {
    return { ok: true, preview: await previewOrder(ctx, { eventSlug: slug, items: lines }) };
  } catch (error) {
    if (!(error instanceof Invalid || error instanceof Conflict)) throw error;
    const messages = Object.values(error.fieldErrors ?? {}).flat();
    return { ok: false, problems: messages.length ? messages : [error.message] };
  }
}
