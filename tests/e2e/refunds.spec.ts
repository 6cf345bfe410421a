import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { fill, hydrated, uniqueEmail } from "./support";

/**
 * Withdrawal ("Botón de arrepentimiento") and refunds end to end, each test
 * on an event of its own organization: a buyer without
 * an account asks on /cuenta/devoluciones inside the legal window and gets a
 * management code at once; a purchase for an event less than 24 hours away
 * goes to the organizer, who approves it on the order's page, and the order
 * shows refunded. Purchases are made through GraphQL createOrder plus the
 * sandbox payment (the checkout pages are another area).
 */

async function graphql<T>(request: APIRequestContext, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await request.post("/api/graphql", {
    headers: { "content-type": "application/json", "x-graphql-csrf": "1" },
    data: { query, variables },
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join("; "));
  return body.data as T;
}

/** A paid purchase (sandbox approval) for one ticket of the event; returns its order code and the payer's email. */
async function paidOrder(request: APIRequestContext, eventSlug: string) {
  const { event } = await graphql<{ event: { ticketTypes: { id: string; paymentMethod: string; available: number }[] } }>(
    request,
    `query($slug: String!) { event(slug: $slug) { ticketTypes { id paymentMethod available } } }`,
    { slug: eventSlug },
  );
  const ticket = event.ticketTypes.find((t) => t.paymentMethod === "MercadoPagoAccount" && t.available > 0)!;
  const email = uniqueEmail("arrepentida");
  const { createOrder } = await graphql<{ createOrder: { billingId: string; order: { code: string } } }>(
    request,
    `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { code } } }`,
    {
      input: {
        eventSlug,
        items: [{ ticketId: ticket.id, qty: 1 }],
        payer: { firstName: "Lucía", lastName: "Arrepentida", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 9 11 5555-1234" },
        paymentMethod: "MERCADO_PAGO",
      },
    },
  );
  const paid = await request.post(`/sandbox/mercadopago/${createOrder.billingId}`, { form: { status: "approved" }, maxRedirects: 0 });
  expect(paid.status()).toBe(302);
  return { orderCode: createOrder.order.code, email };
}

async function askForRefund(page: Page, orderCode: string, email: string) {
  await page.goto("/");
  // The link is on every page (footer on phones, drawer from md up).
  await expect(page.locator('a[href="/cuenta/devoluciones"]').filter({ hasText: "Botón de arrepentimiento" }).first()).toBeAttached();
  await page.goto("/cuenta/devoluciones");
  await expect(page.getByRole("heading", { level: 1, name: "Botón de arrepentimiento" })).toBeVisible();
  await fill(page, "orderCode", orderCode);
  await page.locator('#pedir input[name="email"]').fill(email);
  await fill(page, "reason", "No puedo ir");
  await page.getByRole("button", { name: "Pedir devolución", exact: true }).click();
  // A confirmation step first: nothing is refunded until "Confirmar devolución".
  await expect(page.getByRole("heading", { name: "Revisá antes de confirmar" })).toBeInViewport();
  await expect(page.getByTestId("codigo-gestion")).toHaveCount(0);
  await page.getByRole("button", { name: "Confirmar devolución" }).click();
  const code = page.getByTestId("codigo-gestion");
  await expect(code).toHaveText(/^DEV-[A-Z0-9]{6}$/);
  return (await code.textContent())!;
}

for (const js of [true, false]) {
  test.describe(`withdrawal inside the window (${js ? "with" : "without"} JavaScript)`, () => {
    test.use({ javaScriptEnabled: js });
    test("a buyer without an account gets a management code and the refund at once", async ({ page, request, factory }) => {
      const event = await factory.event({ name: "Fiesta para arrepentirse", ticketTypes: [{ name: "General", price: 1_200_000, stock: 50 }] });
      const { orderCode, email } = await paidOrder(request, event.slug);
      const code = await askForRefund(page, orderCode, email);
      await expect(page.getByText("Devolución aprobada en el momento")).toBeVisible();
      await expect(page.getByText("Tus entradas quedaron anuladas")).toBeVisible();

      // The status can be looked up later with the code and the email.
      await page.goto("/cuenta/devoluciones");
      await page.locator('input[name="code"]').fill(code);
      await page.locator("#lookup-email").fill(email);
      await page.getByRole("button", { name: "Consultar" }).click();
      await expect(page.getByRole("heading", { name: "Estado de tu devolución" })).toBeVisible();
      await expect(page.getByTestId("codigo-gestion")).toHaveText(code);
    });
  });
}

test.describe("withdrawal on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test("asks for confirmation, and the confirmation, the result and errors are in view after each submit", async ({ page, request, factory }) => {
    const event = await factory.event({ name: "Arrepentimiento en el celular", ticketTypes: [{ name: "General", price: 900_000, stock: 20 }] });
    const { orderCode, email } = await paidOrder(request, event.slug);
    await page.goto("/cuenta/devoluciones");
    // A wrong email: the error is at the top, in view and focused.
    await fill(page, "orderCode", orderCode);
    await page.locator('#pedir input[name="email"]').fill("otra-persona@example.com");
    await page.getByRole("button", { name: "Pedir devolución", exact: true }).click();
    await expect(page.getByText("No encontramos una compra con ese código y email").first()).toBeInViewport();
    await expect(page.getByTestId("resultado")).toBeFocused();

    await page.locator('#pedir input[name="email"]').fill(email);
    await page.getByRole("button", { name: "Pedir devolución", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Revisá antes de confirmar" })).toBeInViewport();
    await expect(page.getByText("Se anula 1 entrada")).toBeVisible();
    await page.getByRole("button", { name: "Confirmar devolución" }).click();
    await expect(page.getByTestId("codigo-gestion")).toBeInViewport();
    await expect(page.getByText("Tus entradas quedaron anuladas")).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe("refund request and approval", () => {
  test("outside the window (event in less than 24 hours): the organizer approves it and the order shows refunded", async ({ page, request, factory, signIn }) => {
    const event = await factory.event({ name: "Último momento", startsAt: new Date(Date.now() + 20 * 3600_000), ticketTypes: [{ name: "General", price: 500_000, stock: 50 }] });
    const { orderCode, email } = await paidOrder(request, event.slug);
    const code = await askForRefund(page, orderCode, email);
    await expect(page.getByText("Lo revisa la organización del evento.", { exact: true })).toBeVisible();

    // The organizer signs in and finds it under "Devoluciones pendientes".
    await page.context().clearCookies();
    await signIn(page.context(), event.owner);
    await page.goto("/organizacion/resumen-de-ventas");
    await expect(page.getByRole("heading", { name: /Devoluciones pendientes/ })).toBeVisible();
    await page.getByRole("link", { name: `Revisar ${orderCode}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Compra ${orderCode}` })).toBeVisible();
    const request_ = page.locator(`[data-refund="${code}"]`);
    await expect(request_.getByText("Pendiente")).toBeVisible();
    const approve = request_.getByRole("button", { name: "Aprobar devolución" });
    await hydrated(approve);
    await approve.click();
    await page.getByRole("dialog").getByRole("button", { name: "Aprobar" }).click();
    await expect(page.getByText("Aprobaste la devolución").first()).toBeVisible();
    await expect(page.locator('[data-status="refunded"]').first()).toBeVisible();
    await expect(page.locator('[data-ticket-status="voided"]')).toHaveCount(1);
    await expect(request_.getByText("Devuelta")).toBeVisible();

    // The buyer's status page says so too.
    await page.goto("/cuenta/devoluciones");
    await page.locator('input[name="code"]').fill(code);
    await page.locator('#lookup-email').fill(email);
    await page.getByRole("button", { name: "Consultar" }).click();
    await expect(page.getByText("Devolución aprobada por la organización")).toBeVisible();
  });
});
