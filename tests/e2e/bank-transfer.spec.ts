import type { APIRequestContext, Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";
import { hydrated, uniqueEmail } from "./support";
import { realPdf } from "#tests/support/images";

/**
 * Bank transfer end to end: each test makes a "Feria de Vinos Naturales"
 * whose organization has a Banco Macro transfer account and sells "Entrada
 * por transferencia".
 * Without JavaScript the buyer goes through the event page, the payer form
 * and the summary; with it, the order comes from GraphQL createOrder (its
 * paymentUrl is the bank-transfer page). The buyer uploads the receipt, the organizer
 * approves it in /organizacion/transferencias-bancarias and the buyer's
 * tickets page shows the tickets. Without JavaScript, then with it.
 */

type Feria = Awaited<ReturnType<Factory["event"]>>;

function feria(factory: Factory): Promise<Feria> {
  return factory.event({
    name: "Feria de Vinos Naturales",
    transferAccount: true,
    ticketTypes: [
      { name: "Entrada con copa", price: 1_800_000, stock: 400 },
      { name: "Entrada por transferencia", price: 1_650_000, stock: 100, paymentMethod: "BankAccount" },
    ],
  });
}
const PDF = Buffer.from(await realPdf());

async function graphql<T>(request: APIRequestContext, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await request.post("/api/graphql", { headers: { "content-type": "application/json", "x-graphql-csrf": "1" }, data: { query, variables } });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join("; "));
  return body.data as T;
}

/** A pending bank-transfer purchase of two tickets; the path of its bank-transfer page (with the buyer's token). */
async function transferOrder(request: APIRequestContext, slug: string) {
  const { event } = await graphql<{ event: { ticketTypes: { id: string; paymentMethod: string; available: number }[] } }>(
    request,
    `query($slug: String!) { event(slug: $slug) { ticketTypes { id paymentMethod available } } }`,
    { slug },
  );
  const ticket = event.ticketTypes.find((t) => t.paymentMethod === "BankAccount" && t.available >= 2)!;
  const email = uniqueEmail("transfiere");
  const { createOrder } = await graphql<{ createOrder: { billingId: string; paymentUrl: string; order: { code: string; total: number } } }>(
    request,
    `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId paymentUrl order { code total } } }`,
    {
      input: {
        eventSlug: slug,
        items: [{ ticketId: ticket.id, qty: 2 }],
        payer: { firstName: "Martina", lastName: "Transfiere", email, documentType: "dni", documentNumber: "31222333", phoneNumber: "+54 9 11 5555-1234" },
        paymentMethod: "BANK_TRANSFER",
      },
    },
  );
  const url = new URL(createOrder.paymentUrl);
  expect(url.pathname).toBe(`/checkout/bank-transfer/${createOrder.billingId}`);
  return { path: `${url.pathname}${url.search}`, code: createOrder.order.code, billingId: createOrder.billingId, email };
}

type SignIn = (context: BrowserContext, user: Feria["owner"]) => Promise<void>;

async function organizerPage(browser: Browser, javaScriptEnabled: boolean, signIn: SignIn, event: Feria): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled, locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires" });
  await signIn(context, event.owner);
  return context.newPage();
}

test.describe("transferencia bancaria sin JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("compra por transferencia, sube el comprobante, el organizador aprueba y llegan las entradas", async ({ page, request, browser, factory, signIn }) => {
    const event = await feria(factory);
    // Event page → picker → payer info → summary → bank-transfer page, all plain forms.
    await page.goto(`/eventos/${event.slug}`);
    const main = page.locator("main");
    await main.getByLabel("Cantidad de Entrada por transferencia").fill("2");
    await main.getByRole("button", { name: "Comprar" }).click();
    await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${event.slug}$`));
    await expect(main).toContainText("2 × Entrada por transferencia");
    await main.getByLabel("Nombre", { exact: true }).fill("Martina");
    await main.getByLabel("Apellido", { exact: true }).fill("Transfiere");
    await main.getByLabel("Email", { exact: true }).fill(uniqueEmail("transfiere-ui"));
    await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
    await main.getByLabel("Número de documento", { exact: true }).fill("31.222.333");
    await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 11 5555-1234");
    await main.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=[\w-]+$/);
    const code = (await main.locator("[data-order-code]").innerText()).trim();
    await main.getByRole("link", { name: "Pagar por transferencia" }).click();
    await expect(page).toHaveURL(/\/checkout\/bank-transfer\/[0-9a-f-]{36}\?t=[\w-]+$/);
    const url = new URL(page.url());
    const order = { path: `${url.pathname}${url.search}`, code, billingId: url.pathname.split("/").pop()! };

    // The buyer sees where and how much to transfer, as plain text.
    await page.goto(order.path);
    await expect(page.getByRole("heading", { name: /^Transferí \$\s?[\d.]+,\d{2}$/ })).toBeVisible();
    const account = page.getByTestId("transfer-account");
    await expect(account).toContainText("28505909 40090418135201");
    await expect(account).toContainText(/cuenta\.entradas/i);
    await expect(account).toContainText("Productora de Prueba SRL");
    await expect(account).toContainText("30-71234567-1");
    await expect(account).toContainText("Banco Macro");
    await expect(account).toContainText(order.code);
    await expect(page.getByTestId("hold-deadline")).toHaveText(/^\d{2}:\d{2} - \d{2}\/\d{2}\/\d{4}$/);
    // Without JavaScript there are no copy buttons: the values are selectable text.
    await expect(page.getByRole("button", { name: /^Copiar/ })).toHaveCount(0);

    // A file that only pretends to be a PDF is refused.
    await page.locator('input[name="receipt"]').setInputFiles({ name: "comprobante.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html>no soy un pdf</html>") });
    await page.getByRole("button", { name: "Subir comprobante" }).click();
    await expect(page.getByRole("alert")).toContainText("El comprobante tiene que ser un PDF, JPG o PNG");

    await page.locator('input[name="receipt"]').setInputFiles({ name: "comprobante.pdf", mimeType: "application/pdf", buffer: PDF });
    await page.getByRole("button", { name: "Subir comprobante" }).click();
    await expect(page.getByTestId("receipt-received")).toContainText("Recibimos tu comprobante. El organizador lo revisa y te avisamos por email.");

    // The organizer finds it pending, with the receipt, and approves it.
    const organizer = await organizerPage(browser, false, signIn, event);
    await organizer.goto("/organizacion/transferencias-bancarias");
    const card = organizer.locator(`[data-testid="bank-transfer"][data-order-code="${order.code}"]`);
    await expect(card).toContainText("Martina Transfiere");
    await expect(card).toContainText(/\$\s?[\d.]+,\d{2}/);
    const receiptLink = card.getByRole("link", { name: /comprobante/ });
    await expect(receiptLink).toHaveAttribute("href", /^\/comprobantes\/[0-9a-f-]{36}$/);
    const receipt = await organizer.request.get((await receiptLink.getAttribute("href"))!);
    expect(receipt.status()).toBe(200);
    expect(receipt.headers()["content-type"]).toBe("application/pdf");
    expect(receipt.headers()["x-content-type-options"]).toBe("nosniff");
    // A stranger (no session, no token) does not get it.
    const anonymous = await request.get((await receiptLink.getAttribute("href"))!, { maxRedirects: 0 });
    expect(anonymous.status()).toBe(302);
    // Without JavaScript the buttons still ask first (a native popover), and nothing is decided until confirmed:
    // not by Enter in the reason field (it used to press "Rechazar"), not by opening and cancelling.
    const posts: string[] = [];
    organizer.on("request", (sent) => void (sent.method() === "POST" && posts.push(sent.url())));
    await card.getByLabel(/Motivo del rechazo/).fill("Enter no rechaza");
    await card.getByLabel(/Motivo del rechazo/).press("Enter");
    await card.getByRole("button", { name: "Aprobar" }).click();
    const confirmation = card.getByRole("dialog", { name: `¿Aprobar la transferencia de ${order.code}?` });
    await expect(confirmation).toBeVisible();
    await expect(confirmation).toContainText("Confirmás que llegaron");
    await confirmation.getByRole("button", { name: "Cancelar" }).click();
    await expect(confirmation).toBeHidden();
    await organizer.reload();
    await expect(card.getByText("Pendiente", { exact: true })).toBeVisible();
    expect(posts).toEqual([]);
    await card.getByRole("button", { name: "Aprobar" }).click();
    await confirmation.getByRole("button", { name: "Aprobar" }).click();
    await expect(organizer.getByText("Aprobamos la transferencia: las entradas ya le llegan al comprador.")).toBeVisible();
    await organizer.context().close();

    // The buyer's page now goes to the tickets.
    await page.goto(order.path);
    await expect(page).toHaveURL(new RegExp(`/tickets/${order.billingId}\\?t=`));
    await expect(page.getByTestId("ticket")).toHaveCount(2);
  });
});

test.describe("transferencia bancaria con JavaScript", () => {
  test("copiar los datos, y un rechazo con motivo confirmado en el diálogo llega al comprador", async ({ page, request, browser, context, factory, signIn }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const event = await feria(factory);
    const order = await transferOrder(request, event.slug);
    await page.goto(order.path);
    // Bank details in a monospace face, with a fallback that always ends in a real monospace one (decision 116).
    for (const field of ["CBU", "Alias"]) {
      const family = await page.locator(`[data-field="${field}"]`).evaluate((el) => getComputedStyle(el).fontFamily);
      expect(family, field).toMatch(/(^|,\s*)monospace$/);
    }
    await page.getByRole("button", { name: "Copiar Alias" }).click();
    await expect(page.getByRole("button", { name: "Copiar Alias" })).toHaveText("¡Copiado!");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^cuenta\.entradas$/i);

    const organizer = await organizerPage(browser, true, signIn, event);
    await organizer.goto("/organizacion/transferencias-bancarias");
    const card = organizer.locator(`[data-testid="bank-transfer"][data-order-code="${order.code}"]`);
    await expect(card).toContainText("Sin comprobante todavía");
    await card.getByLabel(/Motivo del rechazo/).fill("No encontramos la transferencia en el banco");
    await hydrated(card.getByRole("button", { name: "Rechazar" }));
    await card.getByRole("button", { name: "Rechazar" }).click();
    const dialog = organizer.getByRole("dialog");
    await expect(dialog).toContainText(`¿Rechazar la transferencia de ${order.code}?`);
    await dialog.getByRole("button", { name: "Rechazar" }).click();
    await expect(organizer.getByText("Rechazamos la transferencia y avisamos al comprador por email.")).toBeVisible();
    await expect(organizer.locator(`[data-testid="bank-transfer"][data-order-code="${order.code}"]`)).toHaveCount(0);
    await organizer.context().close();

    await page.goto(order.path);
    await expect(page.getByText("El organizador no encontró tu transferencia")).toBeVisible();
    await expect(page.getByText("Motivo: No encontramos la transferencia en el banco")).toBeVisible();
  });
});
