import { devices } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * Entradas nominativas (decision 202): the organizer turns them on, a buyer sends one of their tickets to
 * someone else with her DNI (a phone without JavaScript), and the door shows the new holder's name and DNI
 * and refuses the old QR.
 */
test.describe("named tickets", () => {
  test("the organizer turns them on; a ticket sent asks the DNI; the door shows it and refuses the old code", async ({ browser, page, factory, signIn }) => {
    const event = await factory.event({ name: "Recital Nominativo", startsAt: new Date(Date.now() + 3 * 3600_000), ticketTypes: [{ name: "Campo", price: 1_000_000, stock: 100 }] });

    // The organizer: "Entradas nominativas" says what it does; the maximum per account is set in the same card.
    await signIn(page.context(), event.owner);
    await page.goto(`/organizacion/eventos/${event.slug}/campos-personalizados`);
    await expect(page.getByRole("heading", { name: "Entradas nominativas" })).toBeVisible();
    await expect(page.getByText(/sale con un QR nuevo: el anterior deja de servir/)).toBeVisible();
    await page.getByLabel("Entradas nominativas: cada entrada a nombre de quien la usa").check();
    await page.getByLabel("Máximo de entradas por cuenta").fill("4");
    await page.getByRole("button", { name: "Guardar campos" }).last().click();
    await expect(page.getByLabel("Máximo de entradas por cuenta")).toHaveValue("4");
    await expect(page.getByLabel("Entradas nominativas: cada entrada a nombre de quien la usa")).toBeChecked();

    // A buyer with two paid tickets, one per holder.
    const buyer = await factory.user({ firstName: "Joaquín", lastName: "Comprador" });
    const [{ createOrder }, { payInSandbox }, { ticketsOfOrder }, { getDb }, { ctxAs, actorFor }, { shortTicketCode }] = await Promise.all([
      import("#server/orders/orders"),
      import("#server/payment-notifications/sandbox"),
      import("#server/tickets/issue"),
      import("#server/db/client"),
      import("#tests/support/context"),
      import("#common/door"),
    ]);
    const db = await getDb();
    const { order, billing } = await createOrder(await ctxAs(actorFor(buyer)), {
      eventSlug: event.slug,
      items: [{ ticketId: event.tickets.Campo.id, qty: 2 }],
      payer: { firstName: "Joaquín", lastName: "Comprador", email: buyer.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
      attendees: [
        { firstName: "Joaquín", lastName: "Comprador", documentType: "dni", documentNumber: "30123456" },
        { firstName: "Ana", lastName: "Gómez", documentType: "dni", documentNumber: "28999888" },
      ],
    });
    await payInSandbox(db, billing.id, "approved");
    const mine = (await ticketsOfOrder(db, order.id)).find((t) => t.holderName === "Joaquín Comprador")!;

    // The buyer, on a phone without JavaScript, sends it: the DNI is asked, with the message next to the field.
    const phone = await browser.newContext({ ...devices["Pixel 5"], javaScriptEnabled: false });
    await signIn(phone, buyer);
    const buyerPage = await phone.newPage();
    await buyerPage.goto(`/cuenta/mis-tickets/enviar/${mine.id}`);
    await expect(buyerPage.getByText(/Las entradas de este evento son nominativas/)).toBeVisible();
    await buyerPage.getByLabel("Nombre", { exact: true }).fill("Lucía");
    await buyerPage.getByLabel("Apellido").fill("Martínez");
    await buyerPage.getByLabel("Email").fill(`lucia.${Date.now()}@example.com`);
    await buyerPage.getByLabel("Número de documento").fill("12");
    await buyerPage.getByRole("button", { name: "Enviar entrada" }).click();
    await expect(buyerPage.getByText("Ingresá un número de documento válido")).toBeVisible();
    await buyerPage.getByLabel("Número de documento").fill("31.222.333");
    await buyerPage.getByRole("button", { name: "Enviar entrada" }).click();
    await expect(buyerPage).toHaveURL(/\/cuenta\/mis-tickets$/);
    await expect(buyerPage.getByText(/Le enviamos la entrada a Lucía Martínez/)).toBeVisible();
    await phone.close();

    const { issuedProducts } = await import("#server/db/schema");
    const { eq } = await import("drizzle-orm");
    const [sent] = await db.select().from(issuedProducts).where(eq(issuedProducts.id, mine.id));

    // The door (a phone without JavaScript, with the PIN): the old code is no ticket; the new one shows Lucía and her DNI.
    const { rotateDoorPin } = await import("#server/door/access");
    const { pin } = await rotateDoorPin(await ctxAs(actorFor(event.owner)), event.eventId);
    const doorContext = await browser.newContext({ ...devices["Pixel 5"], javaScriptEnabled: false });
    const door = await doorContext.newPage();
    await door.goto(`/vivos/acreditacion/${event.slug}`);
    await door.getByLabel("PIN de la puerta").fill(pin);
    await door.getByLabel("¿En qué puerta estás?").fill("Puerta 1");
    await door.getByRole("button", { name: "Abrir la puerta" }).click();
    await door.getByLabel("Código de la entrada").fill(shortTicketCode(mine.code));
    await door.getByRole("button", { name: "Validar entrada" }).click();
    await expect(door.getByRole("alert")).toContainText("Código no válido");
    await door.getByRole("link", { name: "Escanear otra" }).click();
    await door.getByLabel("Código de la entrada").fill(shortTicketCode(sent.code));
    await door.getByRole("button", { name: "Validar entrada" }).click();
    await expect(door.getByRole("alert")).toContainText("Adelante");
    await expect(door.getByRole("alert")).toContainText("Lucía Martínez");
    await expect(door.getByRole("alert")).toContainText("DNI 31.222.333");
    await expect(door.getByRole("alert")).toContainText("pedí el documento");
    await doorContext.close();
  });
});
