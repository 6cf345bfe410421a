import { devices } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The official resale with the waiting list first (docs/resale.md, docs/waitlist.md), with JavaScript off:
 * on a sold-out named event, a buyer who cannot go lists their ticket; the first person on the waiting list
 * gets the email, claims it naming the holder (name and DNI) and pays in the sandbox; the door admits the
 * new holder showing her name and DNI and refuses the seller's old QR.
 */
test.use({ javaScriptEnabled: false });

const EVENT_NAME = "Reventa a la Lista de Espera";

test("a listed ticket goes to the waiting list first: the person claims it, pays, and the door admits her and refuses the old QR", async ({ browser, factory, signIn }) => {
  // Three hours away: outside the legal withdrawal window, so "No puedo ir" offers the resale.
  const event = await factory.event({ name: EVENT_NAME, startsAt: new Date(Date.now() + 3 * 3600_000), ticketTypes: [{ name: "Campo", price: 1_000_000, stock: 1 }] });
  const [{ createOrder }, { payInSandbox }, { ticketsOfOrder }, { getDb }, { ctxAs, actorFor }, { shortTicketCode }, { setEventWaitlist, joinWaitlist }, schema, { eq }] = await Promise.all([
    import("#server/orders/orders"),
    import("#server/payment-notifications/sandbox"),
    import("#server/tickets/issue"),
    import("#server/db/client"),
    import("#tests/support/context"),
    import("#common/door"),
    import("#server/waitlist/waitlist"),
    import("#server/db/schema"),
    import("drizzle-orm"),
  ]);
  const db = await getDb();
  await db.update(schema.events).set({ oneHolderPerTicket: true }).where(eq(schema.events.id, event.eventId));

  // The seller bought the only ticket (named after himself): the event is sold out.
  const seller = await factory.user({ firstName: "Joaquín", lastName: "Vendedor" });
  const { order, billing } = await createOrder(await ctxAs(actorFor(seller)), {
    eventSlug: event.slug,
    items: [{ ticketId: event.tickets.Campo.id, qty: 1 }],
    payer: { firstName: "Joaquín", lastName: "Vendedor", email: seller.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
    attendees: [{ firstName: "Joaquín", lastName: "Vendedor", documentType: "dni", documentNumber: "30123456" }],
  });
  await payInSandbox(db, billing.id, "approved");
  const [old] = await ticketsOfOrder(db, order.id);

  // The waiting list is on and Valentina waits for a ticket.
  await setEventWaitlist(await ctxAs(actorFor(event.owner)), { eventId: event.eventId, enabled: true });
  const fan = await factory.user({ firstName: "Valentina", lastName: "Quiroga" });
  await joinWaitlist(await ctxAs(actorFor(fan)), { eventSlug: event.slug, quantity: 1 });

  // The seller cannot go: he lists the ticket at the price he paid, from "No puedo ir" (a phone without JavaScript).
  const sellerPhone = await browser.newContext({ ...devices["Pixel 5"], javaScriptEnabled: false });
  await signIn(sellerPhone, seller);
  const sellerPage = await sellerPhone.newPage();
  await sellerPage.goto(`/cuenta/mis-tickets/no-puedo-ir/${old.id}`);
  await sellerPage.locator("main").getByLabel("Precio en pesos").fill("10.000");
  await sellerPage.locator("main").getByRole("button", { name: "Publicar en la reventa oficial" }).click();
  await sellerPage.goto(`/cuenta/mis-tickets/no-puedo-ir/${old.id}`);
  await expect(sellerPage.locator("main").getByText(/Se la ofrecimos a la primera persona de la lista de espera/)).toBeVisible();
  // Meanwhile the event page does not sell it.
  await sellerPage.goto(`/eventos/${event.slug}`);
  await expect(sellerPage.locator("main").getByText("Reventa oficial")).toHaveCount(0);
  await sellerPhone.close();

  // Valentina reads the email and claims it: the form asks who uses the ticket (named event).
  const context = await browser.newContext();
  await signIn(context, fan);
  const page = await context.newPage();
  const subject = `Se liberaron entradas para ${EVENT_NAME}`;
  await expect(async () => {
    await page.goto(`/dev/correos?to=${encodeURIComponent(fan.email)}`);
    await expect(page.locator("main").getByRole("link", { name: subject }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.locator("main").getByRole("link", { name: subject }).first().click();
  const href = await page.locator('main a[href*="/lista-de-espera/oferta/"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  await page.goto(new URL(href!).pathname);
  await expect(page.locator("main").getByText(/Es una entrada de la reventa oficial/)).toBeVisible();
  const main = page.locator("main");
  await main.getByLabel("Número de documento", { exact: true }).fill("33.444.555");
  await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 264 555-1234");
  await main.getByLabel("Nombre (entrada 1)").fill("Valentina");
  await main.getByLabel("Apellido (entrada 1)").fill("Quiroga");
  await main.getByLabel("Número de documento (entrada 1)").fill("33.444.555");
  await page.locator("main").getByRole("button", { name: "Reclamar y pasar a pagar" }).click();
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=/);
  await page.locator("main").getByRole("button", { name: /Pagar .* con Mercado Pago/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/mercadopago\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Aprobar" }).click();
  await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("¡Listo! Tu pago fue aprobado");
  await context.close();

  const [listing] = await db.select().from(schema.resaleListings).where(eq(schema.resaleListings.issuedProductId, old.id));
  expect(listing.status).toBe("sold");
  const [fresh] = await ticketsOfOrder(db, listing.buyerOrderId!);
  expect(fresh).toMatchObject({ holderName: "Valentina Quiroga", status: "redeemable" });

  // The door (a phone without JavaScript, with the PIN): the seller's old QR is refused; the new one shows Valentina and her DNI.
  const { rotateDoorPin } = await import("#server/door/access");
  const { pin } = await rotateDoorPin(await ctxAs(actorFor(event.owner)), event.eventId);
  const doorContext = await browser.newContext({ ...devices["Pixel 5"], javaScriptEnabled: false });
  const door = await doorContext.newPage();
  await door.goto(`/vivos/acreditacion/${event.slug}`);
  await door.getByLabel("PIN de la puerta").fill(pin);
  await door.getByLabel("¿En qué puerta estás?").fill("Puerta 1");
  await door.getByRole("button", { name: "Abrir la puerta" }).click();
  await door.getByLabel("Código de la entrada").fill(shortTicketCode(old.code));
  await door.getByRole("button", { name: "Validar entrada" }).click();
  await expect(door.getByRole("alert")).toContainText("Entrada anulada");
  await door.getByRole("link", { name: "Escanear otra" }).click();
  await door.getByLabel("Código de la entrada").fill(shortTicketCode(fresh.code));
  await door.getByRole("button", { name: "Validar entrada" }).click();
  await expect(door.getByRole("alert")).toContainText("Adelante");
  await expect(door.getByRole("alert")).toContainText("Valentina Quiroga");
  await expect(door.getByRole("alert")).toContainText("DNI 33.444.555");
  await doorContext.close();
});
