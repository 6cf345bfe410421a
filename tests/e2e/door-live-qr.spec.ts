import type { Route } from "@playwright/test";
import { doorKeptOffline, goOffline, openDoor, phoneWithCamera } from "./door-camera";
import { E2E_BASE_URL } from "./env";
import { expect, test, type Factory } from "./fixtures";
import { hydrated } from "./support";

/** An event tonight with its live QR on and three paid tickets, the door's PIN, and a way to make each ticket's live code. */
async function liveNight(factory: Factory) {
  const event = await factory.event({ name: "Noche en Vivo", days: 0, ticketTypes: [{ name: "General", price: 1_000_000, stock: 100 }] });
  const [{ createOrder }, { payInSandbox }, { ticketsOfOrder }, { getDb }, { actorFor, ctxAs }, { rotateDoorPin }, liveQr, { hexToBytes, liveCodeAt }, { withBillingToken }] = await Promise.all([
    import("#server/orders/orders"),
    import("#server/payment-notifications/sandbox"),
    import("#server/tickets/issue"),
    import("#server/db/client"),
    import("#tests/support/context"),
    import("#server/door/access"),
    import("#server/door/live-qr"),
    import("#common/live-qr"),
    import("#server/auth/billing-access"),
  ]);
  const { order, billing } = await createOrder(await ctxAs(), {
    eventSlug: event.slug,
    items: [{ ticketId: event.tickets.General.id, qty: 3 }],
    payer: { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
    paymentMethod: "MERCADO_PAGO",
  });
  const db = await getDb();
  await payInSandbox(db, billing.id, "approved");
  const owner = await ctxAs(actorFor(event.owner));
  await liveQr.setEventLiveQr(owner, { eventId: event.eventId, enabled: true, staticCodeRevealHours: 24 });
  const { pin } = await rotateDoorPin(owner, event.eventId);
  const tickets = await ticketsOfOrder(db, order.id);
  const codeAt = async (ticketId: string, at: number) => {
    const { ticketRef, secretHex } = await liveQr.liveTicketCredentials(db, event.eventId, ticketId);
    return liveCodeAt(hexToBytes(secretHex), ticketRef, at);
  };
  return { event, pin, tickets, codeAt, ticketsPath: withBillingToken(`/tickets/${billing.id}`, billing.id) };
}

test("the ticket page draws the live code in the browser, the same the server computes, and keeps changing in airplane mode", async ({ factory, page, context }) => {
  test.setTimeout(90_000);
  const { ticketsPath } = await liveNight(factory);
  const { verifyLiveCode, hexToBytes, parseLiveCode } = await import("#common/live-qr");
  const { liveTicketCredentials } = await import("#server/door/live-qr");
  const { getDb } = await import("#server/db/client");
  await page.goto(ticketsPath);
  const live = page.getByTestId("live-qr").first();
  await expect(live).toBeVisible();
  await expect(live).toContainText(/QR dinámico · cambia en \d{1,2} s/);
  const first = (await live.getAttribute("data-live-code"))!;
  // The browser's code is the server's at this moment (one implementation, common/live-qr.ts).
  const parsed = parseLiveCode(first)!;
  expect(parsed).not.toBeNull();
  const db = await getDb();
  const { secretHex } = await liveTicketCredentials(db, await eventIdOfTicket(parsed.ticketId), parsed.ticketId);
  expect((await verifyLiveCode(hexToBytes(secretHex), first, Date.now())).valid).toBe(true);
  // No static short code on a live ticket.
  await expect(page.getByText(/^[A-Z0-9]{5} [A-Z0-9]{5}$/)).toHaveCount(0);

  // Airplane mode: no request is needed for the next code.
  await expect.poll(() => page.evaluate(async () => Boolean(await (await caches.open("tribuna-tickets-v1")).match(location.href))), { timeout: 15_000 }).toBe(true);
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await context.setOffline(true);
  await expect.poll(() => live.getAttribute("data-live-code"), { timeout: 20_000 }).not.toBe(first);
  const next = (await live.getAttribute("data-live-code"))!;
  expect((await verifyLiveCode(hexToBytes(secretHex), next, Date.now())).valid).toBe(true);
  expect(requests).toEqual([]);
  await context.setOffline(false);

  // Without JavaScript: the static QR and the note saying from when it counts.
  const plain = await context.browser()!.newContext({ javaScriptEnabled: false, baseURL: E2E_BASE_URL, locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires" });
  const noJs = await plain.newPage();
  await noJs.goto(ticketsPath);
  await expect(noJs.getByTestId("live-qr-fallback").first()).toContainText(/^Activá JavaScript para ver el código que cambia\. Este código fijo vale en la puerta desde el \d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2}\.$/);
  await expect(noJs.getByTestId("live-qr")).toHaveCount(0);
  await plain.close();
});

async function eventIdOfTicket(ticketId: string): Promise<string> {
  const [{ getDb }, { issuedProducts }, { eq }] = await Promise.all([import("#server/db/client"), import("#server/db/schema"), import("drizzle-orm")]);
  const [row] = await (await getDb()).select({ eventId: issuedProducts.eventId }).from(issuedProducts).where(eq(issuedProducts.id, ticketId));
  return row.eventId;
}

test("a door phone without network admits a live code from the camera and refuses one a minute old", async ({ factory, signIn, page }) => {
  test.setTimeout(120_000);
  const { event, pin, tickets, codeAt } = await liveNight(factory);
  // The door's clock is pinned to this moment (once its page runs), so the code in front of the camera is current however slow the machine is.
  const now = Date.now();
  const stale = await codeAt(tickets[1].id, now - 60_000);
  const { context, close } = await phoneWithCamera(await codeAt(tickets[0].id, now));
  try {
    const door = await context.newPage();
    await openDoor(door, event.slug, pin);
    await doorKeptOffline(door);

    const offline = await goOffline(context);
    const reloaded = await door.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await hydrated(door.getByLabel("Código de la entrada"));
    await door.clock.setFixedTime(new Date(now));

    // A screenshot taken a minute ago, typed as read under the QR.
    await door.getByLabel("Código de la entrada").fill(stale);
    await door.getByLabel("Código de la entrada").press("Enter");
    await expect(door.getByRole("alert")).toContainText("Código vencido");
    await expect(door.getByRole("alert")).toContainText("Captura de pantalla o código vencido: pedile que abra la entrada");
    await expect(door.getByRole("alert")).not.toContainText("Sofía Peña");
    await door.getByRole("button", { name: "Escanear otra" }).click();

    // The code the ticket shows now, in front of the camera. The camera's QR reader is a chunk of its own that only a
    // first use online brings (the offline copy of the page has what it loaded), so here the page gets its files but
    // the API stays unreachable: the door still judges without the network.
    const noApi = (route: Route) => route.abort("internetdisconnected");
    await context.route("**/api/graphql", noApi);
    await context.unroute("**", offline);
    await context.setOffline(false);
    await door.getByRole("button", { name: "Escanear con la cámara" }).click();
    await expect(door.getByRole("alert")).toContainText("Adelante", { timeout: 20_000 });
    await expect(door.getByRole("alert")).toContainText("Sofía Peña");
    await expect(door.getByRole("alert")).toContainText("Sin conexión");
    await expect(door.getByTestId("door-status")).toContainText("2 escaneos sin sincronizar");

    // Back online, the queue syncs and the server agrees: one entry.
    await context.unroute("**/api/graphql", noApi);
    await expect(door.getByTestId("door-status")).toHaveText("Con conexión", { timeout: 20_000 });
    await signIn(page.context(), event.owner);
    await page.goto(`/vivos/${event.slug}`);
    await expect(page.getByTestId("live-entered")).toContainText("1 de 3");
    await context.close();
  } finally {
    await close();
  }
});
