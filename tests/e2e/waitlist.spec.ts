import { expect, test } from "./fixtures";

/**
 * The waiting list with JavaScript off (docs/waitlist.md): the only ticket is held by someone else's unpaid
 * order; the organizer turns the list on; a buyer joins from the sold-out event page; the organizer adds a
 * ticket; the app's job offers it; the buyer reads the email in the mailbox, claims and pays in the sandbox.
 */
test.use({ javaScriptEnabled: false });

const EVENT_NAME = "Noche Agotada: Lista de Espera";

test("a buyer joins the waiting list of a sold-out event, gets the email when a ticket comes back, claims it and pays", async ({ browser, factory, signIn }) => {
  const event = await factory.event({ name: EVENT_NAME, ticketTypes: [{ name: "Campo", price: 1_000_000, stock: 1 }] });
  // Someone else holds the only ticket (an unpaid order): the event is sold out.
  const [{ createOrder }, { ctxAs }] = await Promise.all([import("#server/orders/orders"), import("#tests/support/context")]);
  await createOrder(await ctxAs(), {
    eventSlug: event.slug,
    items: [{ ticketId: event.tickets.Campo.id, qty: 1 }],
    payer: { firstName: "Otra", lastName: "Persona", email: "otra@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });

  // The organizer turns the list on from the back office.
  const organizer = await browser.newContext();
  await signIn(organizer, event.owner);
  const back = await organizer.newPage();
  await back.goto(`/organizacion/eventos/${event.slug}/lista-de-espera`);
  await back.locator("main").getByLabel("Usar la lista de espera en este evento").check();
  await back.locator("main").getByRole("button", { name: "Guardar" }).click();
  await expect(back.locator("main").getByLabel("Usar la lista de espera en este evento")).toBeChecked();

  // A buyer finds it sold out and joins from the event page.
  const buyer = await factory.user({ firstName: "Valentina", lastName: "Quiroga" });
  const context = await browser.newContext();
  await signIn(context, buyer);
  const page = await context.newPage();
  await page.goto(`/eventos/${event.slug}`);
  await page.locator("main").getByRole("button", { name: "Anotarme en la lista de espera" }).click();
  await expect(page).toHaveURL(new RegExp(`/lista-de-espera/${event.slug}`));
  await page.locator("main").getByLabel("¿Cuántas?").selectOption("1");
  await page.locator("main").getByRole("button", { name: "Anotarme en la lista de espera" }).click();
  await expect(page).toHaveURL(/\/cuenta\/lista-de-espera$/);
  await expect(page.locator("main").getByText("Sos la primera persona de la lista.")).toBeVisible();

  // The organizer adds a ticket: the app offers it to the list and emails the buyer.
  const added = await organizer.request.post("/api/graphql", {
    headers: { "content-type": "application/json", accept: "application/json" },
    data: { query: "mutation($input: AddTicketStockInput!) { addTicketStock(input: $input) { stock } }", variables: { input: { id: event.tickets.Campo.id, quantity: 1 } } },
  });
  expect(await added.json()).toMatchObject({ data: { addTicketStock: { stock: 2 } } });
  await organizer.close();

  const subject = `Se liberaron entradas para ${EVENT_NAME}`;
  await expect(async () => {
    await page.goto(`/dev/correos?to=${encodeURIComponent(buyer.email)}`);
    await expect(page.locator("main").getByRole("link", { name: subject }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.locator("main").getByRole("link", { name: subject }).first().click();
  const href = await page.locator('main a[href*="/lista-de-espera/oferta/"]').first().getAttribute("href");
  expect(href).toBeTruthy();

  // The claim: the payer's form, then the normal checkout and the sandbox.
  await page.goto(new URL(href!).pathname);
  await expect(page.locator("main").getByText(/Te guardamos 1 entrada/)).toBeVisible();
  await page.locator("main").getByLabel("Número de documento", { exact: true }).fill("30.123.456");
  await page.locator("main").getByLabel("Teléfono", { exact: true }).fill("+54 9 264 555-1234");
  await page.locator("main").getByRole("button", { name: "Reclamar y pasar a pagar" }).click();
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=/);
  await page.locator("main").getByRole("button", { name: /Pagar .* con Mercado Pago/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/mercadopago\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Aprobar" }).click();
  await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("¡Listo! Tu pago fue aprobado");

  await page.goto("/cuenta/lista-de-espera");
  await expect(page.locator("main").getByText("Reclamaste las entradas.")).toBeVisible();
  await context.close();
});
