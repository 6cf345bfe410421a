import type { APIRequestContext, Page, Route } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";
import { hydrated, uniqueEmail } from "./support";

/**
 * Hydration never leaves a page dead (decision 180). Each test breaks the hydration of
 * /organizacion/transferencias-bancarias on purpose, by changing the server's HTML on its way to the browser,
 * and then opens the Radix dialog of "Rechazar": React is running the page again.
 */

const PAGE = "/organizacion/transferencias-bancarias";
const CLOSE_STREAM = "window.__remixContext.streamController.close();";

async function pendingTransfer(factory: Factory, request: APIRequestContext) {
  const event = await factory.event({
    name: "Feria de Vinos Naturales",
    transferAccount: true,
    ticketTypes: [{ name: "Entrada por transferencia", price: 1_650_000, stock: 100, paymentMethod: "BankAccount" }],
  });
  const post = async <T,>(query: string, variables: Record<string, unknown>) => {
    const response = await request.post("/api/graphql", { headers: { "content-type": "application/json", "x-graphql-csrf": "1" }, data: { query, variables } });
    return ((await response.json()) as { data: T }).data;
  };
  const { event: found } = await post<{ event: { ticketTypes: { id: string }[] } }>(`query($slug: String!) { event(slug: $slug) { ticketTypes { id } } }`, { slug: event.slug });
  const { createOrder } = await post<{ createOrder: { order: { code: string } } }>(
    `mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { code } } }`,
    {
      input: {
        eventSlug: event.slug,
        items: [{ ticketId: found.ticketTypes[0].id, qty: 1 }],
        payer: { firstName: "Martina", lastName: "Transfiere", email: uniqueEmail("hidrata"), documentType: "dni", documentNumber: "31222333", phoneNumber: "+54 9 11 5555-1234" },
        paymentMethod: "BANK_TRANSFER",
      },
    },
  );
  return { event, code: createOrder.order.code };
}

/** Serves the page's HTML changed by `edit` (the rest of the response as the server sent it). */
async function editHtml(page: Page, edit: (html: string) => string) {
  await page.route(`**${PAGE}`, async (route: Route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch();
    const html = await response.text();
    const headers = { ...response.headers() };
    delete headers["content-encoding"];
    delete headers["content-length"];
    const edited = edit(html);
    expect(edited, "the HTML was changed").not.toBe(html);
    await route.fulfill({ status: response.status(), headers, body: edited });
  });
}

/** "Rechazar" opens the Radix dialog (not the native popover a page without React opens), and Cancelar closes it. */
async function rejectDialogOpens(page: Page, code: string) {
  const card = page.locator(`[data-testid="bank-transfer"][data-order-code="${code}"]`);
  const reject = card.getByRole("button", { name: "Rechazar" });
  await hydrated(reject);
  await card.getByLabel(/Motivo del rechazo/).fill("No la encontramos");
  await reject.click();
  const dialog = page.locator('[role="dialog"][data-state="open"]');
  await expect(dialog).toContainText(`¿Rechazar la transferencia de ${code}?`);
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toHaveCount(0);
}

test("the page's data arriving after the document while the visitor types: React waits for it and hydrates, no error", async ({ page, factory, request, signIn }) => {
  const { event, code } = await pendingTransfer(factory, request);
  await signIn(page.context(), event.owner);
  // The loader data's stream closes 1.5 s after the document is parsed: React's root waits for it, suspended,
  // while the visitor types.
  await editHtml(page, (html) => html.replace(CLOSE_STREAM, `setTimeout(function(){${CLOSE_STREAM}},1500);`));
  const errors: string[] = [];
  const reports: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => void (message.text().startsWith("Hidratación") && reports.push(message.text())));
  await page.goto(PAGE);
  const reason = page.locator(`[data-order-code="${code}"]`).getByLabel(/Motivo del rechazo/);
  // Typing until the page has React again (each fill is an input event).
  await expect
    .poll(
      async () => {
        await reason.fill(`Escribo ${Date.now()}`).catch(() => {});
        return reason.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))).catch(() => false);
      },
      { intervals: [50], timeout: 15_000 },
    )
    .toBe(true);
  await rejectDialogOpens(page, code);
  // Nothing thrown, nothing to recover from.
  expect(errors).toEqual([]);
  expect(reports).toEqual([]);
});

test("the end of the page still on its way while the JavaScript runs and the visitor types (the cause of #345): hydration waits for the data, no error", async ({ page, factory, request, signIn }) => {
  const { event, code } = await pendingTransfer(factory, request);
  await signIn(page.context(), event.owner);
  // A script that holds the parser for 1.5 s just before the data's last chunk, as a slow network would: the
  // page is painted and its JavaScript restored (decision 132) while the document is still arriving.
  await editHtml(page, (html) => {
    const nonce = /<script nonce="([^"]+)"/.exec(html)?.[1] ?? "";
    return html.replace(`<script nonce="${nonce}">${CLOSE_STREAM}`, `<script nonce="${nonce}" src="/__resto-de-la-pagina.js"></script><script nonce="${nonce}">${CLOSE_STREAM}`);
  });
  let released = false;
  await page.route("**/__resto-de-la-pagina.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    released = true;
    await route.fulfill({ status: 200, contentType: "text/javascript", body: "" });
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(PAGE, { waitUntil: "commit" });
  const reason = page.locator(`[data-order-code="${code}"]`).getByLabel(/Motivo del rechazo/);
  let typedBefore = 0;
  await expect
    .poll(
      async () => {
        if (await reason.fill(`Escribo ${Date.now()}`).then(() => true, () => false)) typedBefore += released ? 0 : 1;
        return reason.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))).catch(() => false);
      },
      { intervals: [50], timeout: 15_000 },
    )
    .toBe(true);
  // The visitor did type while the page was still arriving, and React only took over once it had.
  expect(typedBefore).toBeGreaterThan(0);
  expect(released).toBe(true);
  await rejectDialogOpens(page, code);
  expect(errors).toEqual([]);
});

test("a mismatch between the server's HTML and the first render is reported and React renders the page again", async ({ page, factory, request, signIn }) => {
  const { event, code } = await pendingTransfer(factory, request);
  await signIn(page.context(), event.owner);
  // A text the client will not render.
  await editHtml(page, (html) => html.replace("Sin comprobante todavía", "Sin comprobante todavía (copia vieja)"));
  const reports: string[] = [];
  page.on("console", (message) => void (message.text().startsWith("Hidratación") && reports.push(message.text())));
  await page.goto(PAGE);
  await rejectDialogOpens(page, code);
  await expect(page.locator(`[data-order-code="${code}"]`)).toContainText("Sin comprobante todavía");
  await expect(page.locator(`[data-order-code="${code}"]`)).not.toContainText("copia vieja");
  // Reported (to Sentry too when it runs: app/lib/sentry-start.ts), and nothing left for the fallback to do.
  expect(reports.length).toBeGreaterThan(0);
  expect(reports.every((r) => r.startsWith("Hidratación (recovered)")), reports.join("\n")).toBe(true);
});
