import type { APIRequestContext, BrowserContext, Page, Route } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";
import { newestEmailText } from "./support";

// `context.setOffline` does not reach a service worker's own fetches (microsoft/playwright#2311): with
// these events on, the test cuts them with a route too, so "offline" really is offline for the worker.
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = "1";

type Buyer = Awaited<ReturnType<Factory["user"]>>;
type SignIn = (context: BrowserContext, user: Buyer) => Promise<void>;

async function signInAsBuyer(page: Page, factory: Factory, signIn: SignIn): Promise<Buyer> {
  const buyer = await factory.user({ firstName: "Joaquín", lastName: "Comprador" });
  await signIn(page.context(), buyer);
  await page.goto("/");
  await expect(page.locator('header a[href="/cuenta/mi-cuenta"]:visible').first()).toBeVisible();
  return buyer;
}

async function gql<T>(request: APIRequestContext, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await request.post("/api/graphql", { data: { query, variables }, headers: { "x-graphql-csrf": "1" } });
  const body = await response.json();
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

/** Buys two tickets of a new event with the browser's session (GraphQL createOrder), then pays them in the sandbox. */
async function buyAndPay(page: Page, factory: Factory, buyer: Buyer) {
  const event = await factory.event({ name: "Noche de Cumbia", ticketTypes: [{ name: "General", price: 1_500_000, stock: 100 }] });
  const { createOrder } = await gql<{ createOrder: { billingId: string; order: { code: string } } }>(
    page.request,
    "mutation C($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { code } } }",
    {
      input: {
        eventSlug: event.slug,
        eventDateId: event.eventDateId,
        items: [{ ticketId: event.tickets.General.id, qty: 2 }],
        payer: { firstName: "Joaquín", lastName: "Comprador", email: buyer.email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
        paymentMethod: "MERCADO_PAGO",
      },
    },
  );
  const paid = await page.request.post(`/sandbox/mercadopago/${createOrder.billingId}`, { form: { status: "approved" }, maxRedirects: 0 });
  expect(paid.status()).toBe(302);
  return { eventName: event.name, billingId: createOrder.billingId, orderCode: createOrder.order.code };
}

test.describe("tickets", () => {
  test("a paid order shows in Mis tickets with its QR full screen, and the page still opens offline", async ({ page, context, factory, signIn }) => {
    const buyer = await signInAsBuyer(page, factory, signIn);
    const { eventName, billingId, orderCode } = await buyAndPay(page, factory, buyer);

    await page.goto("/cuenta/mis-tickets");
    await expect(page.getByRole("heading", { name: "Mis tickets", level: 1 })).toBeVisible();
    const upcoming = page.locator("section", { has: page.getByRole("heading", { name: "Próximos" }) });
    const mine = upcoming.getByTestId("ticket").filter({ hasText: orderCode });
    await expect(mine).toHaveCount(2);
    await expect(mine.first()).toContainText(eventName);
    await expect(mine.first()).toContainText("Válida");
    await expect(mine.first().locator("a[href^='#qr-'] svg")).toBeVisible();

    // Full screen: a white page with a big QR (works as a :target, JavaScript or not).
    await mine.first().locator("a[href^='#qr-']").click();
    const full = page.locator(".qr-full:target");
    await expect(full).toBeVisible();
    await expect(full).toHaveCSS("background-color", "rgb(255, 255, 255)");
    const box = await full.locator("svg").boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await full.getByRole("link", { name: "Cerrar" }).click();
    await expect(page.locator(".qr-full:target")).toHaveCount(0);

    // Offline once opened: wait for the service worker to keep the page, then cut the network and reload.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            await navigator.serviceWorker.ready;
            const cache = await caches.open("tribuna-tickets-v1");
            return Boolean(await cache.match(location.href));
          }),
        { timeout: 15_000 },
      )
      .toBe(true);
    const cutFromWorker: string[] = [];
    const offline = (route: Route) => {
      if (!route.request().serviceWorker()) return route.continue();
      cutFromWorker.push(new URL(route.request().url()).pathname);
      return route.abort("internetdisconnected");
    };
    await context.setOffline(true);
    await context.route("**", offline);
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await expect(page.getByRole("heading", { name: "Mis tickets", level: 1 })).toBeVisible();
    await expect(page.getByTestId("ticket").filter({ hasText: orderCode }).first().locator("svg").first()).toBeVisible();
    // The worker did try the network (network first) and was cut off: the page came from its cache.
    expect(cutFromWorker).toContain("/cuenta/mis-tickets");
    await context.unroute("**", offline);
    await context.setOffline(false);

    // The tickets email (sent by the job queue) links to the confirmation page, which shows the QRs and the PDF.
    let text = "";
    await expect(async () => {
      text = await newestEmailText(page, buyer.email);
      expect(text).toContain(`Compra ${orderCode}`);
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId("email-attachments")).toContainText(`entradas-${orderCode}.pdf`);
    const link = /https?:\/\/\S+\/tickets\/\S+/.exec(text)![0];
    expect(link).toContain(`/tickets/${billingId}?t=`);
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "¡Listo! Tu compra está confirmada" })).toBeVisible();
    await expect(page.getByText(`Te las mandamos también a ${buyer.email}.`)).toBeVisible();
    await expect(page.getByTestId("ticket")).toHaveCount(2);
    const pdf = await page.request.get(await page.getByRole("link", { name: "Descargar PDF" }).getAttribute("href").then((h) => h!));
    expect(pdf.headers()["content-type"]).toBe("application/pdf");

    // Signing out forgets the tickets kept for offline use.
    await page.goto("/cuenta/mis-tickets");
    // On buyer pages "Cerrar sesión" is in the menu that opens from the header.
    await page.locator("header label.menu-button").click();
    await page.locator('#menu form[action="/cuenta/cerrar-sesion"] button').click();
    await expect(page.locator('header a[href="/cuenta/iniciar-sesion"]:visible').first()).toBeVisible();
    await expect.poll(() => page.evaluate(() => caches.has("tribuna-tickets-v1"))).toBe(false);
  });

});

test.describe("tickets without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the purchase page shows the tickets and opens a QR full screen", async ({ page, factory, signIn }) => {
    const buyer = await signInAsBuyer(page, factory, signIn);
    const { orderCode } = await buyAndPay(page, factory, buyer);
    await page.goto("/cuenta/mis-tickets");
    await page.getByRole("link", { name: `Ver la compra ${orderCode}` }).first().click();
    await expect(page.getByRole("heading", { name: "¡Listo! Tu compra está confirmada" })).toBeVisible();
    await expect(page.getByText(`Compra ${orderCode}`).first()).toBeVisible();
    const tickets = page.getByTestId("ticket");
    await expect(tickets).toHaveCount(2);
    await expect(page.locator(".qr-full:target")).toHaveCount(0);
    await tickets.nth(1).locator("a[href^='#qr-']").click();
    await expect(page.locator(".qr-full:target")).toBeVisible();
    await page.locator(".qr-full:target").getByRole("link", { name: "Cerrar" }).click();
    await expect(page.locator(".qr-full:target")).toHaveCount(0);
  });
});
