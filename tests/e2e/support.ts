import { expect, type Locator, type Page } from "@playwright/test";
import type { Factory } from "./fixtures";

export function uniqueEmail(prefix = "e2e") {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** Fills a form field by its name (the same name as the GraphQL argument). */
export async function fill(page: Page, name: string, value: string) {
  await page.locator(`form [name="${name}"]:visible`).first().fill(value);
}

export async function submit(page: Page, formSelector = "main form") {
  await page.locator(`${formSelector} [type="submit"]:visible`).last().click();
}

/**
 * Waits until React has hydrated `element`. The page's JavaScript arrives after the first paint (decision 132),
 * and until then a button behaves as it does without JavaScript: a ConfirmButton (app/components/ui/Dialog.tsx)
 * opens its native popover instead of the Radix dialog. A test that means to go through the dialog waits for this.
 */
export async function hydrated(element: Locator) {
  await expect.poll(() => element.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps")))).toBe(true);
}

/** Opens the newest email to `email` in the dev mailbox and returns its text version. */
export async function newestEmailText(page: Page, email: string): Promise<string> {
  await page.goto(`/dev/correos?to=${encodeURIComponent(email)}`);
  const row = page.locator("main").getByRole("link").filter({ hasText: email }).first();
  await expect(row).toBeVisible();
  await row.click();
  const text = page.locator('[data-testid="email-text"]');
  await expect(text).toBeVisible();
  return text.innerText();
}

/**
 * A new event tonight with `qty` paid General tickets of one order (payer Sofía Peña, DNI 30123456), made
 * through the domain: the door tests start from sold tickets.
 */
export async function tonightWithPaidTickets(factory: Factory, options: { name: string; qty: number }) {
  const event = await factory.event({ name: options.name, days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
  const [{ createOrder }, { payInSandbox }, { ticketsOfOrder }, { getDb }, { ctxAs }] = await Promise.all([
    import("#server/orders/orders"),
    import("#server/payment-notifications/sandbox"),
    import("#server/tickets/issue"),
    import("#server/db/client"),
    import("#tests/support/context"),
  ]);
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: event.slug,
    items: [{ ticketId: event.tickets.General.id, qty: options.qty }],
    payer: { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  const db = await getDb();
  await payInSandbox(db, billing.id, "approved");
  return { event, tickets: await ticketsOfOrder(db, order.id) };
}
