import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { createEventWithTickets } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

const ITEM_FIELDS = "id eventId name description category categoryLabel price priceFormatted available maxPerOrder imageUrl stock sold visible status";
const CREATE = `mutation($input: CreateMenuItemInput!) { createMenuItem(input: $input) { ${ITEM_FIELDS} } }`;
const UPDATE = `mutation($input: UpdateMenuItemInput!) { updateMenuItem(input: $input) { ${ITEM_FIELDS} } }`;
const STATUS = `mutation($id: ID!, $status: String!) { setMenuItemStatus(id: $id, status: $status) { id status } }`;
const REORDER = `mutation($eventId: ID!, $ids: [ID!]!) { reorderMenu(eventId: $eventId, ids: $ids) { name } }`;
const MENU = `query($slug: String!) { menu(eventSlug: $slug) { eventSlug eventName items { id name available stock sold } } }`;
const ITEMS = `query($eventId: ID!) { menuItems(eventId: $eventId) { name sold stock status visible } }`;
const CREATE_ORDER = `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { id status total } } }`;
const REDEEM = `mutation($input: RedeemProductInput!) { redeemProduct(input: $input) { outcome productKind ticketTypeName } }`;

type Item = { id: string; name: string; price: number; stock: number | null; sold: number | null; available: number; status: string; visible: boolean };

async function organizer() {
  const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 100 }], { days: 0 });
  const tokens = await startSession(await getDb(), made.user, new Date());
  return { ...made, tokens };
}

describe("menu over GraphQL", () => {
  it("an integrator builds the menu, a buyer reads and orders it, the bar serves it", async () => {
    const { event, tokens } = await organizer();
    const created = await gql<{ createMenuItem: Item }>(CREATE, { tokens, variables: { input: { eventId: event.id, name: "Fernet con coca", category: "drink", price: 450_000, stock: 30 } } });
    expect(created.body.errors).toBeUndefined();
    const fernet = created.body.data!.createMenuItem;
    expect(fernet).toMatchObject({ name: "Fernet con coca", category: "drink", categoryLabel: "Bebida", price: 450_000, stock: 30, sold: 0, visible: true, status: "active" });
    const pancho = (await gql<{ createMenuItem: Item }>(CREATE, { tokens, variables: { input: { eventId: event.id, name: "Pancho", category: "food", price: 300_000, stock: 10, visible: false } } })).body.data!.createMenuItem;

    const bad = await gql(CREATE, { tokens, variables: { input: { eventId: event.id, name: "Torta", category: "postre", price: 1, stock: 1 } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    expect(bad.body.errors?.[0].extensions).toMatchObject({ fieldErrors: { category: ["Elegí si es bebida, comida o combo."] } });

    // Partial update: only the price changes.
    const updated = await gql<{ updateMenuItem: Item }>(UPDATE, { tokens, variables: { input: { id: fernet.id, price: 500_000 } } });
    expect(updated.body.data!.updateMenuItem).toMatchObject({ name: "Fernet con coca", price: 500_000, stock: 30 });
    await gql(REORDER, { tokens, variables: { eventId: event.id, ids: [pancho.id, fernet.id] } });

    // A buyer (no session) sees only what can be ordered, without stock figures.
    const menu = await gql<{ menu: { items: Item[] } }>(MENU, { variables: { slug: event.slug } });
    expect(menu.body.data!.menu.items).toEqual([{ id: fernet.id, name: "Fernet con coca", available: 30, stock: null, sold: null }]);
    const order = await gql<{ createOrder: { billingId: string; order: { total: number } } }>(CREATE_ORDER, {
      variables: {
        input: {
          eventSlug: event.slug,
          items: [{ ticketId: fernet.id, qty: 2 }],
          payer: { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
          paymentMethod: "MERCADO_PAGO",
        },
      },
    });
    expect(order.body.errors).toBeUndefined();
    const { payInSandbox } = await import("#server/payment-notifications/sandbox");
    await payInSandbox(await getDb(), order.body.data!.createOrder.billingId, "approved");
    const items = await gql<{ menuItems: Item[] }>(ITEMS, { tokens, variables: { eventId: event.id } });
    expect(items.body.data!.menuItems.map((i) => [i.name, i.sold, i.visible])).toEqual([
      ["Pancho", 0, false],
      ["Fernet con coca", 2, true],
    ]);

    const { ticketsOfOrder } = await import("#server/tickets/issue");
    const { orders } = await import("#server/db/schema");
    const { eq } = await import("drizzle-orm");
    const db = await getDb();
    const [row] = await db.select().from(orders).where(eq(orders.eventId, event.id));
    const [drink] = await ticketsOfOrder(db, row.id);
    const atDoor = await gql<{ redeemProduct: { outcome: string; productKind: string } }>(REDEEM, { tokens, variables: { input: { eventSlug: event.slug, code: drink.code } } });
    expect(atDoor.body.data!.redeemProduct).toMatchObject({ outcome: "wrong_place", productKind: "menu" });
    const atBar = await gql<{ redeemProduct: { outcome: string; ticketTypeName: string } }>(REDEEM, { tokens, variables: { input: { eventSlug: event.slug, code: drink.code, mode: "bar" } } });
    expect(atBar.body.data!.redeemProduct).toMatchObject({ outcome: "admitted", ticketTypeName: "Fernet con coca" });

    const paused = await gql<{ setMenuItemStatus: { status: string } }>(STATUS, { tokens, variables: { id: fernet.id, status: "paused" } });
    expect(paused.body.data!.setMenuItemStatus.status).toBe("paused");
  });

  it("strangers cannot touch another organization's menu", async () => {
    const { event } = await organizer();
    const stranger = await organizer();
    const result = await gql(CREATE, { tokens: stranger.tokens, variables: { input: { eventId: event.id, name: "Fernet", category: "drink", price: 1, stock: 1 } } });
    expect(errorCode(result)).toBe("FORBIDDEN");
    expect(errorCode(await gql(ITEMS, { variables: { eventId: event.id } }))).toBe("UNAUTHENTICATED");
  });
});
