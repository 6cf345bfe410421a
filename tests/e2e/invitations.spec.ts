import { devices } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newestEmailText, uniqueEmail } from "./support";

test.describe("invitations", () => {
  test("an organizer invites a guest, the guest opens the email's link on a phone and gets in at the door", async ({ browser, page, factory, signIn }) => {
    const event = await factory.event({ name: "Noche de Invitados", days: 0, ticketTypes: [{ name: "Invitados", price: 0, stock: 10 }] });
    await signIn(page.context(), event.owner);
    const email = uniqueEmail("invitada");

    await page.goto(`/organizacion/invitaciones?eventId=${event.eventId}`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Nombre", { exact: true }).fill("Julieta");
    await page.getByLabel("Apellido").fill("Venegas");
    await page.getByLabel("DNI (opcional)").fill("30.111.222");
    await page.getByLabel("Cantidad").fill("1");
    await page.getByRole("button", { name: "Mandar invitación" }).click();
    await expect(page.getByText(`¡Listo! Le mandamos las entradas a ${email}.`)).toBeVisible();
    const listed = page.locator("li", { hasText: "Julieta Venegas" });
    await expect(listed).toContainText("1 × Invitados");

    // The guest, on a phone: the invitation email links to their ticket.
    const phone = await browser.newContext({ ...devices["Pixel 5"] });
    const guest = await phone.newPage();
    // The email goes out from the job queue (it runs every few seconds).
    const { emailsTo } = await import("#tests/support/mailbox");
    await expect.poll(async () => (await emailsTo(email, "tickets")).length, { timeout: 20_000 }).toBe(1);
    const text = await newestEmailText(guest, email);
    expect(text).toContain(`te invitó a ${event.name}`);
    const link = /https?:\/\/[^\s]+\/mis-tickets\/[^\s]+/.exec(text)?.[0] ?? /https?:\/\/[^\s]+\?t=[^\s]+/.exec(text)![0];
    const url = new URL(link);
    await guest.goto(`${url.pathname}${url.search}`);
    await expect(guest.getByText("Julieta Venegas").first()).toBeVisible();
    const code = (await guest.getByLabel(/^Código: /).first().getAttribute("aria-label"))!.replace("Código: ", "");
    expect(code.replace(/\s/g, "")).toHaveLength(10);
    await phone.close();

    // The door (the owner's own session) lets the invitation in once.
    await page.goto(`/vivos/acreditacion/${event.slug}`);
    await page.getByLabel("Código de la entrada").fill(code);
    await page.getByRole("button", { name: "Validar entrada" }).click();
    await expect(page.getByRole("alert")).toContainText("Adelante");
    await expect(page.getByRole("alert")).toContainText("Julieta Venegas");
  });
});
