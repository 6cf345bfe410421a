import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newestEmailText } from "./support";

/** The one-time link of the newest team invitation emailed to `email`, as a path. */
async function invitationPath(page: Page, email: string): Promise<string> {
  const text = await newestEmailText(page, email);
  return new URL(/https?:\/\/\S+\/organizacion\/operadores\/aceptar\/[\w-]+/.exec(text)![0]).pathname;
}

async function acceptWithNickname(page: Page, path: string, nickname: string) {
  await page.goto(path);
  await page.getByLabel("Tu apodo").fill(nickname);
  await page.getByRole("button", { name: "Aceptar y entrar" }).click();
  await expect(page).toHaveURL(/\/organizacion\/relaciones-publicas\/mi-grupo/);
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test.describe("promoters", () => {
  test("a lead invites a promoter, a buyer buys through the promoter's link, the door lets the ticket in and the promoter sees 1 sold, 1 accredited", async ({ browser, page, factory, signIn }) => {
    const event = await factory.event({ name: "Noche de RRPP", days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 50 }] });
    const tag = factory.uniqueWord().toLowerCase();
    await signIn(page.context(), event.owner);

    // The organization makes a group for this event and invites its lead.
    const lead = await factory.user({ firstName: "Romina", lastName: "Líder" });
    await page.goto("/organizacion/relaciones-publicas/grupos");
    await page.getByLabel("Nombre del grupo").fill("Los de la noche");
    await page.locator("main form").first().getByRole("checkbox", { name: "Noche de RRPP" }).check();
    await page.getByRole("button", { name: "Crear grupo" }).click();
    await expect(page.getByText("¡Listo! Creamos el grupo.")).toBeVisible();
    const group = page.locator("section", { has: page.getByRole("heading", { name: "Los de la noche" }) });
    await group.getByLabel("Sumar RRPP por email o apodo").fill(lead.email);
    await group.getByLabel("Como líder del grupo").check();
    await group.getByRole("button", { name: "Invitar" }).click();
    await expect(page.getByText(`Le mandamos la invitación a ${lead.email.toLowerCase()}.`)).toBeVisible();
    const leadInvitation = await invitationPath(page, lead.email);

    // The lead accepts, picks a nickname and invites a promoter from their own page.
    const asLead = await newPage(browser);
    await signIn(asLead.context, lead);
    await acceptWithNickname(asLead.page, leadInvitation, `romi.${tag}`);
    await expect(asLead.page.getByRole("heading", { name: "Mi grupo: Los de la noche" })).toBeVisible();
    const promoter = await factory.user({ firstName: "Fede", lastName: "Noche" });
    await asLead.page.getByLabel("Sumar RRPP por email o apodo").fill(promoter.email);
    await asLead.page.getByRole("button", { name: "Invitar" }).click();
    await expect(asLead.page.getByText(`Le mandamos la invitación a ${promoter.email.toLowerCase()}.`)).toBeVisible();

    // The promoter accepts and copies their link.
    const asPromoter = await newPage(browser);
    await signIn(asPromoter.context, promoter);
    await acceptWithNickname(asPromoter.page, await invitationPath(asPromoter.page, promoter.email), `fede.${tag}`);
    const link = await asPromoter.page.getByRole("textbox", { name: "Tu link para Noche de RRPP" }).inputValue();
    expect(link).toMatch(new RegExp(`/eventos/${event.slug}/fede\\.${tag}$`));
    await expect(asPromoter.page.getByTestId("sold")).toHaveText("0");

    // A buyer opens the link and buys one ticket with the sandbox.
    const buyer = await newPage(browser);
    await buyer.page.goto(new URL(link).pathname);
    const main = buyer.page.locator("main");
    await expect(main.locator("[data-referral]")).toContainText("Fede Noche");
    await main.getByLabel("Cantidad de General").fill("1");
    await main.getByRole("button", { name: "Comprar" }).click();
    await main.getByLabel("Nombre", { exact: true }).fill("Valentina");
    await main.getByLabel("Apellido", { exact: true }).fill("Quiroga");
    await main.getByLabel("Email", { exact: true }).fill(`compradora-${tag}@example.com`);
    await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
    await main.getByLabel("Número de documento", { exact: true }).fill("30.123.456");
    await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 11 5555-1234");
    await main.getByRole("button", { name: "Continuar al pago" }).click();
    await main.getByRole("button", { name: /Pagar .* con Mercado Pago/ }).click();
    await buyer.page.getByRole("button", { name: "Aprobar" }).click();
    await buyer.page.locator("main").getByRole("link", { name: "Ver mis entradas" }).click();
    const code = (await buyer.page.getByLabel(/^Código: /).first().getAttribute("aria-label"))!.replace("Código: ", "");

    // The door lets the ticket in.
    await page.goto(`/vivos/acreditacion/${event.slug}`);
    await page.getByLabel("Código de la entrada").fill(code);
    await page.getByRole("button", { name: "Validar entrada" }).click();
    await expect(page.getByRole("alert")).toContainText("Adelante");

    // The promoter's page: 1 sold, 1 accredited; the lead sees it in their group.
    await asPromoter.page.reload();
    await expect(asPromoter.page.getByTestId("sold")).toHaveText("1");
    await expect(asPromoter.page.getByTestId("accredited")).toHaveText("1");
    await expect(asPromoter.page.locator("main")).toContainText("Noche de RRPP");
    await asLead.page.reload();
    await expect(asLead.page.locator(`[data-promoter="fede.${tag}"]`)).toContainText("1 vendida · 1 ingresó");

    await Promise.all([asLead.context.close(), asPromoter.context.close(), buyer.context.close()]);
  });
});
