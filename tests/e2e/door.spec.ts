import { devices } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";
import { tonightWithPaidTickets } from "./support";

/** Two paid General tickets of a new event tonight; their codes as the door types them. */
async function nightWithTickets(factory: Factory) {
  const { event, tickets } = await tonightWithPaidTickets(factory, { name: "Noche de Puerta", qty: 2 });
  const { shortTicketCode } = await import("#common/door");
  return { event, codes: tickets.map((t) => shortTicketCode(t.code)) };
}

test.describe("the door", () => {
  test("the owner makes a PIN; a phone without JavaScript opens the door with it and admits once; the live view updates by itself", async ({ browser, page, factory, signIn }) => {
    const { event, codes } = await nightWithTickets(factory);
    await signIn(page.context(), event.owner);
    await page.goto("/organizacion/staff-pin");
    const card = page.locator("li", { has: page.getByRole("heading", { name: event.name }) });
    await card.getByRole("button", { name: "Generar PIN" }).click();
    const pin = (await card.getByLabel(/^PIN:/).textContent())!.trim();
    expect(pin).toMatch(/^\d{8}$/);

    // The team's live view, open before anyone enters.
    await page.goto(`/vivos/${event.slug}`);
    await expect(page.getByTestId("live-entered")).toContainText("0 de 2");
    await expect(page.getByText("Actualizando en vivo")).toBeVisible();

    const phone = await browser.newContext({ ...devices["Pixel 5"], javaScriptEnabled: false });
    const door = await phone.newPage();
    await door.goto(`/vivos/acreditacion/${event.slug}`);
    await door.getByLabel("PIN de la puerta").fill("1234 5678" === pin ? "8765 4321" : "1234 5678");
    await door.getByLabel("¿En qué puerta estás?").fill("Puerta 2");
    await door.getByRole("button", { name: "Abrir la puerta" }).click();
    await expect(door.getByText("El PIN no es correcto. Pedíselo a quien organiza el evento.")).toBeVisible();
    await door.getByLabel("PIN de la puerta").fill(pin);
    await door.getByLabel("¿En qué puerta estás?").fill("Puerta 2");
    await door.getByRole("button", { name: "Abrir la puerta" }).click();

    await door.getByLabel("Código de la entrada").fill(codes[0].toLowerCase());
    await door.getByRole("button", { name: "Validar entrada" }).click();
    await expect(door.getByRole("alert")).toContainText("Adelante");
    await expect(door.getByRole("alert")).toContainText("Sofía Peña");
    await expect(page.getByTestId("live-entered")).toContainText("1 de 2");

    await door.getByRole("link", { name: "Escanear otra" }).click();
    await door.getByLabel("Código de la entrada").fill(codes[0]);
    await door.getByRole("button", { name: "Validar entrada" }).click();
    await expect(door.getByRole("alert")).toContainText("Ya ingresó");
    await expect(door.getByRole("alert")).toContainText(/Ya ingresó a las \d{2}:\d{2} por Puerta 2: .+\./);

    // Search by DNI and let the second ticket in from the list.
    await door.getByRole("link", { name: "Escanear otra" }).click();
    await door.getByRole("textbox", { name: "Nombre, DNI o código de compra" }).fill("30123456");
    await door.getByRole("button", { name: "Buscar" }).click();
    await door.getByRole("button", { name: "Dar ingreso a Sofía Peña" }).click();
    await expect(door.getByRole("alert")).toContainText("Adelante");
    await expect(page.getByTestId("live-entered")).toContainText("2 de 2");
    await expect(page.getByTestId("live-latest")).toContainText("Ya ingresó");
    await phone.close();
  });
});
