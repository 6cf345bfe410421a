import { expect, test } from "./fixtures";
import { hydrated, newestEmailText, uniqueEmail } from "./support";

test.describe("email campaigns", () => {
  test("an organizer writes a template, sends a campaign to an event's buyers, and a buyer unsubscribes from the email's link", async ({ page, factory, signIn }) => {
    const event = await factory.event({ name: "Noche de Campaña", ticketTypes: [{ name: "General", price: 1_000_000, stock: 50 }] });
    const buyer = uniqueEmail("compradora");
    const [{ createOrder }, { payInSandbox }, { getDb }, { ctxAs }, { isUnsubscribed }] = await Promise.all([
      import("#server/orders/orders"),
      import("#server/payment-notifications/sandbox"),
      import("#server/db/client"),
      import("#tests/support/context"),
      import("#server/campaigns/unsubscribe"),
    ]);
    const { billing } = await createOrder(await ctxAs(), {
      eventSlug: event.slug,
      items: [{ ticketId: event.tickets.General.id, qty: 1 }],
      payer: { firstName: "Lucía", lastName: "Paz", email: buyer, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(await getDb(), billing.id, "approved");
    await signIn(page.context(), event.owner);

    // The template, with a preview at phone width.
    await page.goto("/organizacion/campanias-de-email/plantillas/crear");
    await page.getByLabel("Nombre de la plantilla").fill("Recordatorio");
    await page.getByLabel("Asunto", { exact: true }).fill("{{nombre}}, se viene {{evento}}");
    await page.getByLabel("Texto del correo").fill("Hola {{nombre}}:\n\n**{{evento}}** es el {{fecha}}.\n\n[Ver el evento]({{link_evento}})");
    await page.getByRole("button", { name: "Ver vista previa" }).click();
    await expect(page.frameLocator('iframe[title="Vista previa del correo"]').getByText("Hola Sofía:")).toBeVisible();
    await page.getByRole("button", { name: "Guardar plantilla" }).click();
    await expect(page.getByRole("link", { name: "Recordatorio" })).toBeVisible();

    // The campaign: its audience is the event's one buyer.
    await page.goto("/organizacion/campanias-de-email");
    await page.getByLabel("Nombre de la campaña").fill("Última semana");
    await page.getByLabel("Plantilla").selectOption({ label: "Recordatorio" });
    await page.getByLabel("A quién").selectOption(`event:${event.eventId}`);
    await page.getByRole("button", { name: "Guardar campaña" }).click();
    await expect(page.getByText("1 persona", { exact: true })).toBeVisible();
    await hydrated(page.getByRole("button", { name: "Mandar ahora" }));
    await page.getByRole("button", { name: "Mandar ahora" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Mandar ahora" }).click();
    // The queue sends it; the page refreshes itself until it is done.
    await expect(page.getByText(/^Terminado: 1 enviados/)).toBeVisible({ timeout: 30_000 });

    // The buyer reads it and unsubscribes: the link's page asks first (a GET never unsubscribes).
    const text = await newestEmailText(page, buyer);
    expect(text).toContain(`Hola Lucía:`);
    expect(text).toContain(`${event.name} es el`);
    const link = /https?:\/\/\S+\/correos\/baja\/\S+/.exec(text)![0];
    const url = new URL(link);
    await page.context().clearCookies();
    await page.goto(`${url.pathname}`);
    await expect(page.getByRole("heading", { name: `¿No querés recibir más correos de ${event.organizationName}?` })).toBeVisible();
    expect(await isUnsubscribed(await getDb(), event.organizationId, buyer)).toBe(false);
    await page.getByRole("button", { name: "Darme de baja" }).click();
    await expect(page.getByRole("heading", { name: "Listo, te diste de baja" })).toBeVisible();
    expect(await isUnsubscribed(await getDb(), event.organizationId, buyer)).toBe(true);
  });
});
