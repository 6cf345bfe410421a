import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test, type Factory } from "./fixtures";

/**
 * The virtual queue with JavaScript off (docs/queue.md): the queue page
 * refreshes itself with `<meta http-equiv="refresh">`, so these tests only
 * wait on it. Two tickets on sale, and before any order the queue expects
 * two per person: the first buyer joins before the opening, sees the
 * countdown, gets the turn after it and buys both; the second joins after
 * the opening, waits, and sees "Agotado" once they are sold.
 */
test.use({ javaScriptEnabled: false });

const EVENT_NAME = "Estadio Lleno: Preventa con Fila";
/** How far ahead the opening is set: enough to see the countdown and join before it. */
const OPENS_IN_MS = 15_000;

/**
 * The event, and its queue turned on by its organizer over GraphQL, as an integrator would: the app's process
 * then runs the admitter (this test process is no app process, and the app would not hear its changes).
 */
async function eventWithQueue(factory: Factory, browser: Browser, signIn: (context: BrowserContext, user: { id: string; email: string; roles: string[] }) => Promise<void>) {
  const event = await factory.event({ name: EVENT_NAME, ticketTypes: [{ name: "Campo", price: 1_000_000, stock: 2 }] });
  const organizer = await browser.newContext();
  await signIn(organizer, event.owner);
  const opensAt = new Date(Date.now() + OPENS_IN_MS);
  const answer = await organizer.request.post("/api/graphql", {
    headers: { "content-type": "application/json", accept: "application/json" },
    data: {
      query: "mutation($input: SetEventQueueInput!) { setEventQueue(input: $input) { enabled drawCommitment } }",
      variables: { input: { eventId: event.eventId, enabled: true, opensAt: opensAt.toISOString(), admissionMinutes: 10 } },
    },
  });
  expect(await answer.json()).toMatchObject({ data: { setEventQueue: { enabled: true } } });
  await organizer.close();
  return { event, opensAt };
}

const queueState = (page: Page) => page.locator("main section[data-queue-state]");

async function buyTheTicket(page: Page, slug: string) {
  const main = page.locator("main");
  await main.getByRole("link", { name: "Ir a comprar" }).click();
  // With the turn's cookie the event page opens instead of sending back to the queue.
  await expect(page).toHaveURL(new RegExp(`/eventos/${slug}$`));
  await main.getByLabel("Cantidad de Campo").fill("2");
  await main.getByRole("button", { name: "Comprar" }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${slug}$`));
  await main.getByLabel("Nombre", { exact: true }).fill("Valentina");
  await main.getByLabel("Apellido", { exact: true }).fill("Quiroga");
  await main.getByLabel("Tipo de documento", { exact: true }).selectOption("dni");
  await main.getByLabel("Número de documento", { exact: true }).fill("30.123.456");
  await main.getByLabel("Teléfono", { exact: true }).fill("+54 9 264 555-1234");
  await main.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}\?t=/);
  await main.getByRole("button", { name: /Pagar .* con Mercado Pago/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/mercadopago\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Aprobar" }).click();
  await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("¡Listo! Tu pago fue aprobado");
}

test("a buyer joins before the opening, is admitted after it and buys; another waits and sees Agotado", async ({ browser, factory, signIn }) => {
  test.setTimeout(120_000);
  const { event, opensAt } = await eventWithQueue(factory, browser, signIn);
  const first = await browser.newContext({ javaScriptEnabled: false });
  const second = await browser.newContext({ javaScriptEnabled: false });
  await signIn(first, await factory.user({ firstName: "Valentina", lastName: "Quiroga" }));
  await signIn(second, await factory.user({ firstName: "Joaquín", lastName: "Ledesma" }));
  const a = await first.newPage();
  const b = await second.newPage();

  // Before the opening the event page sends to the queue, which counts down and publishes the draw's commitment.
  await a.goto(`/eventos/${event.slug}`);
  await expect(a).toHaveURL(new RegExp(`/fila/${event.slug}$`));
  await expect(queueState(a)).toHaveAttribute("data-queue-state", "countdown");
  await expect(queueState(a)).toContainText("La venta abre en");
  await expect(a.locator("[data-countdown]")).toHaveText(/^0:(0\d|1\d)$/);
  await expect(a.getByTestId("draw-commitment")).toHaveText(/^[0-9a-f]{64}$/);
  await expect(a.getByTestId("draw-seed")).toHaveCount(0);
  const commitment = (await a.getByTestId("draw-commitment").textContent()) ?? "";
  await a.locator("main").getByRole("button", { name: "Sumarme a la fila" }).click();
  await expect(a).toHaveURL(new RegExp(`/fila/${event.slug}$`));
  await expect(queueState(a)).toContainText("Ya estás en la fila");
  expect(Date.now()).toBeLessThan(opensAt.getTime());

  // After the opening the page, refreshing itself, gives the turn and reveals the seed that matches the commitment.
  await expect(queueState(a)).toHaveAttribute("data-queue-state", "admitted", { timeout: OPENS_IN_MS + 30_000 });
  await expect(queueState(a)).toContainText("¡Es tu turno!");
  const seed = (await a.getByTestId("draw-seed").textContent()) ?? "";
  const { createHash } = await import("node:crypto");
  expect(createHash("sha256").update(seed).digest("hex")).toBe(commitment);

  // The second buyer arrives after the opening: behind, waiting, and sent to the queue from the event page.
  await b.goto(`/eventos/${event.slug}`);
  await expect(b).toHaveURL(new RegExp(`/fila/${event.slug}$`));
  await b.locator("main").getByRole("button", { name: "Sumarme a la fila" }).click();
  await expect(queueState(b)).toHaveAttribute("data-queue-state", "waiting");
  await expect(queueState(b)).toContainText("Estás en la fila");
  await expect(queueState(b)).toContainText("Delante tuyo");

  await buyTheTicket(a, event.slug);

  // Both tickets are sold: the waiting buyer's page says so by itself, within seconds.
  await expect(queueState(b)).toHaveAttribute("data-queue-state", "sold_out", { timeout: 30_000 });
  await expect(queueState(b)).toContainText("Agotado");
  await first.close();
  await second.close();
});

test("with JavaScript the page asks /fila/{slug}/estado, updates in place and reloads itself when the turn comes", async ({ browser, factory, signIn }) => {
  test.setTimeout(90_000);
  const { event } = await eventWithQueue(factory, browser, signIn);
  const context = await browser.newContext({ javaScriptEnabled: true });
  await signIn(context, await factory.user({ firstName: "Lucía", lastName: "Benítez" }));
  const page = await context.newPage();
  const polls: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === `/fila/${event.slug}/estado`) polls.push(response.headers()["cache-control"] ?? "");
  });
  await page.goto(`/fila/${event.slug}`);
  await page.locator("main").getByRole("button", { name: "Sumarme a la fila" }).click();
  await expect(queueState(page)).toContainText("Ya estás en la fila");
  // The countdown reaches the opening: the script asks, and once the turn comes the page reloads with it.
  await expect(queueState(page)).toHaveAttribute("data-queue-state", "admitted", { timeout: OPENS_IN_MS + 30_000 });
  await expect(page.locator("main").getByRole("link", { name: "Ir a comprar" })).toBeVisible();
  expect(polls.length).toBeGreaterThan(0);
  expect(polls.every((header) => header === "no-store")).toBe(true);
  await context.close();
});

test("the queue page, waiting for the opening on a 390 px phone, has no WCAG 2.2 AA violation in either theme", async ({ browser, factory, signIn, baseURL }) => {
  const { default: AxeBuilder } = await import("@axe-core/playwright");
  const { event } = await eventWithQueue(factory, browser, signIn);
  // With JavaScript: without it the page's own refresh would reload it in the middle of the check.
  const context = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 390, height: 844 } });
  await signIn(context, await factory.user({ firstName: "Marina", lastName: "Sosa" }));
  const page = await context.newPage();
  await page.goto(`/fila/${event.slug}`);
  await page.locator("main").getByRole("button", { name: "Sumarme a la fila" }).click();
  await expect(queueState(page)).toContainText("Ya estás en la fila");
  const violations = async (tags: string[] | null) => {
    const builder = new AxeBuilder({ page });
    const results = await (tags ? builder.withTags(tags) : builder.withRules(["color-contrast", "link-in-text-block"])).analyze();
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  };
  expect(await violations(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"])).toEqual([]);
  // No page wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.addCookies([{ name: "theme", value: "dark", domain: new URL(baseURL!).hostname, path: "/" }]);
  await page.reload();
  await expect(queueState(page)).toContainText("Ya estás en la fila");
  expect(await violations(null)).toEqual([]);
  await context.close();
});
