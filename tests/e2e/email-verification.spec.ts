import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { fill, submit, uniqueEmail } from "./support";

/**
 * Decision 115: a purchase made without an account joins the account created later with the same email once
 * that email is verified (the link of the email sent at registration, read in the dev mailbox: no SMTP).
 */
async function graphql<T>(request: APIRequestContext, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await request.post("/api/graphql", { headers: { "content-type": "application/json", "x-graphql-csrf": "1" }, data: { query, variables } });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join("; "));
  return body.data as T;
}

test("a purchase made without an account appears in Mis tickets after the email is verified", async ({ page, request, factory }) => {
  const event = await factory.event({ name: "Recital para verificar", ticketTypes: [{ name: "General", price: 700_000, stock: 20 }] });
  const email = uniqueEmail("verificada");
  const { event: found } = await graphql<{ event: { ticketTypes: { id: string }[] } }>(request, `query($slug: String!) { event(slug: $slug) { ticketTypes { id } } }`, { slug: event.slug });
  const { createOrder } = await graphql<{ createOrder: { billingId: string; order: { code: string } } }>(
    request,
    `mutation($input: CreateOrderInput!) { createOrder(input: $input) { billingId order { code } } }`,
    {
      input: {
        eventSlug: event.slug,
        items: [{ ticketId: found.ticketTypes[0].id, qty: 1 }],
        payer: { firstName: "Vera", lastName: "Verificada", email, documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 9 11 5555-1234" },
        paymentMethod: "MERCADO_PAGO",
      },
    },
  );
  const paid = await request.post(`/sandbox/mercadopago/${createOrder.billingId}`, { form: { status: "approved" }, maxRedirects: 0 });
  expect(paid.status()).toBe(302);

  // The account, created later with the same email: the purchase is not there until the email is verified.
  await page.goto("/cuenta/registro");
  await fill(page, "firstName", "Vera");
  await fill(page, "lastName", "Verificada");
  await fill(page, "email", email);
  await fill(page, "password", "clave-segura-1");
  await submit(page);
  await expect(page).toHaveURL("/");
  await expect(page.getByText(`Te mandamos un correo a ${email} para confirmar tu email.`).first()).toBeVisible();
  await page.goto("/cuenta/mis-tickets");
  await expect(page.getByText("Recital para verificar")).toHaveCount(0);

  // Mi cuenta explains it; the link comes from the mailbox.
  await page.goto("/cuenta/mi-cuenta");
  await expect(page.getByRole("heading", { name: "Confirmá tu email" })).toBeVisible();
  await page.goto(`/dev/correos?to=${encodeURIComponent(email)}`);
  await page.locator("main").getByRole("link", { name: "Confirmá tu email en Tribuna" }).first().click();
  const href = await page.locator('main a[href*="/cuenta/verificar-email"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  await page.goto(new URL(href!).pathname + new URL(href!).search);
  await expect(page.getByRole("heading", { name: "¡Listo! Confirmaste tu email" })).toBeVisible();
  await expect(page.getByTestId("compras-sumadas")).toHaveText("Sumamos a tu cuenta 1 compra que habías hecho sin cuenta con este email.");

  await page.getByRole("link", { name: "Ver mis tickets" }).click();
  await expect(page).toHaveURL("/cuenta/mis-tickets");
  await expect(page.getByText("Recital para verificar").first()).toBeVisible();
  await page.goto("/cuenta/mi-cuenta");
  await expect(page.getByRole("heading", { name: "Confirmá tu email" })).toHaveCount(0);
});
