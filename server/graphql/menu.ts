import { builder } from "./builder";
import { given, money } from "./scalars";
import * as menuDomain from "#server/menu/menu";
import type { MenuItemView } from "#server/menu/menu";

/**
 * The event's menu for integrators (decision 106): the same domain functions
 * as /organizacion/menu and /menu/{slug}. A menu item is bought with
 * createOrder like a ticket (its id as `ticketId`; never in the same order
 * as tickets) and served with redeemProduct in mode "bar".
 */

const MenuItem = builder.objectRef<MenuItemView & { forBuyers?: boolean }>("MenuItem").implement({
  description: "A drink, food or combo of an event's menu.",
  fields: (t) => ({
    id: t.exposeID("id", { nullable: false, description: "Use it as ticketId in createOrder." }),
    eventId: t.exposeID("eventId", { nullable: false }),
    name: t.exposeString("name", { nullable: false }),
    description: t.exposeString("description", { nullable: false }),
    category: t.exposeString("category", { nullable: false, description: "drink, food or combo." }),
    categoryLabel: t.exposeString("categoryLabel", { nullable: false, description: "Bebida, Comida or Combo." }),
    price: t.exposeInt("price", { nullable: false, description: "Integer centavos (ARS)." }),
    priceFormatted: t.string({ nullable: false, resolve: (i) => money(i.price)! }),
    available: t.exposeInt("available", { nullable: false }),
    maxPerOrder: t.exposeInt("maxPerOrder", { nullable: false }),
    imageUrl: t.string({ resolve: (i) => i.imageUrl }),
    stock: t.int({ description: "Back office only (null in `menu`).", resolve: (i) => (i.forBuyers ? null : i.stock) }),
    sold: t.int({ description: "Units held by unpaid orders or sold (null in `menu`).", resolve: (i) => (i.forBuyers ? null : i.sold) }),
    visible: t.exposeBoolean("visible", { nullable: false }),
    status: t.exposeString("status", { nullable: false, description: "active, paused or deleted." }),
  }),
});

const PublicMenu = builder.objectRef<NonNullable<Awaited<ReturnType<typeof menuDomain.publicMenu>>>>("PublicMenu").implement({
  fields: (t) => ({
    eventSlug: t.string({ nullable: false, resolve: (m) => m.event.slug }),
    eventName: t.string({ nullable: false, resolve: (m) => m.event.name }),
    items: t.field({ type: [MenuItem], nullable: false, resolve: (m) => m.items.map((i) => ({ ...i, forBuyers: true })) }),
  }),
});

builder.queryFields((t) => ({
  menu: t.field({
    type: PublicMenu,
    description: "What a buyer can order now from the event's menu (visible, active items); null when the event is not on sale.",
    args: { eventSlug: t.arg.string({ required: true }) },
    resolve: (_root, args, { ctx }) => menuDomain.publicMenu(ctx, args.eventSlug),
  }),
  menuItems: t.field({
    type: [MenuItem],
    nullable: false,
    description: "Every item of an event's menu for the back office (paused and hidden ones too) with sold counts. Needs sales:read.",
    args: { eventId: t.arg.id({ required: true }) },
    resolve: (_root, args, { ctx }) => menuDomain.listMenuItems(ctx, String(args.eventId)),
  }),
}));

const CreateMenuItemInput = builder.inputType("CreateMenuItemInput", {
  fields: (t) => ({
    eventId: t.id({ required: true }),
    name: t.string({ required: true }),
    description: t.string(),
    category: t.string({ required: true, description: "drink, food or combo." }),
    price: t.int({ required: true, description: "Integer centavos." }),
    stock: t.int({ required: true }),
    maxPerOrder: t.int({ description: "1–100, default 10." }),
    imageUrl: t.string({ description: "An image uploaded with uploadImage." }),
    visible: t.boolean({ description: "Default true." }),
  }),
});

const UpdateMenuItemInput = builder.inputType("UpdateMenuItemInput", {
  description: "Fields left out keep their value.",
  fields: (t) => ({
    id: t.id({ required: true }),
    name: t.string(),
    description: t.string(),
    category: t.string(),
    price: t.int({ description: "Integer centavos." }),
    stock: t.int({ description: "Never below what is sold or held." }),
    maxPerOrder: t.int(),
    imageUrl: t.string(),
    visible: t.boolean(),
  }),
});

builder.mutationFields((t) => ({
  createMenuItem: t.field({
    type: MenuItem,
    nullable: false,
    description: "Adds a drink, food or combo to an event's menu, last. Needs events:manage.",
    args: { input: t.arg({ type: CreateMenuItemInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => menuDomain.createMenuItem(ctx, given({ ...input, eventId: String(input.eventId) })),
  }),
  updateMenuItem: t.field({
    type: MenuItem,
    nullable: false,
    args: { input: t.arg({ type: UpdateMenuItemInput, required: true }) },
    resolve: (_root, { input }, { ctx }) => menuDomain.updateMenuItem(ctx, given({ ...input, id: String(input.id) })),
  }),
  setMenuItemStatus: t.field({
    type: MenuItem,
    nullable: false,
    description: "Pauses (not sold for now), resumes or deletes an item (sold units stay valid at the bar).",
    args: { id: t.arg.id({ required: true }), status: t.arg.string({ required: true, description: "active, paused or deleted." }) },
    resolve: (_root, args, { ctx }) => menuDomain.setMenuItemStatus(ctx, { id: String(args.id), status: args.status }),
  }),
  reorderMenu: t.field({
    type: [MenuItem],
    nullable: false,
    description: "The menu in this order (items left out keep their place after these).",
    args: { eventId: t.arg.id({ required: true }), ids: t.arg.idList({ required: true }) },
    resolve: (_root, args, { ctx }) => menuDomain.reorderMenu(ctx, { eventId: String(args.eventId), ids: args.ids.map(String) }),
  }),
}));
