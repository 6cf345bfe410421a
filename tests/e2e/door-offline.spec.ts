import { doorKeptOffline, goOffline, openDoor, phoneWithCamera } from "./door-camera";
import { expect, test, type Factory } from "./fixtures";
import { tonightWithPaidTickets } from "./support";

async function nightWithTickets(factory: Factory) {
  const { event, tickets } = await tonightWithPaidTickets(factory, { name: "Noche sin Red", qty: 3 });
  const [{ shortTicketCode }, { qrPayloadFor }, { rotateDoorPin }, { actorFor, ctxAs }] = await Promise.all([
    import("#common/door"),
    import("#server/tickets/qr"),
    import("#server/door/access"),
    import("#tests/support/context"),
  ]);
  const { pin } = await rotateDoorPin(await ctxAs(actorFor(event.owner)), event.eventId);
  return { event, pin, qr: qrPayloadFor(tickets[0].code), shortCodes: tickets.map((t) => shortTicketCode(t.code)) };
}

test("a phone scans a real QR with the camera, keeps admitting with the network gone and across a reload, and syncs when it returns", async ({ factory, signIn, page }) => {
  test.setTimeout(120_000);
  const { event, pin, qr, shortCodes } = await nightWithTickets(factory);
  const { context, close } = await phoneWithCamera(qr);
  try {
    const door = await context.newPage();
    await openDoor(door, event.slug, pin);

    await door.getByRole("button", { name: "Escanear con la cámara" }).click();
    await expect(door.getByRole("alert")).toContainText("Adelante", { timeout: 20_000 });
    await expect(door.getByRole("alert")).toContainText("Sofía Peña");
    await door.getByRole("button", { name: "Escanear otra" }).click();
    await expect(door.getByRole("alert")).toContainText("Ya ingresó", { timeout: 20_000 });
    await expect(door.getByRole("alert")).toContainText("Puerta 1");
    // The verdict stays on screen: the camera is paused while it shows. With "Escanear otra" the QR still in front
    // of the camera would be scanned again, and on a slow machine that scan could land after the network goes and
    // be queued as a fourth offline scan.

    // The page and its manifest are kept on the phone; then the network goes.
    await doorKeptOffline(door);
    const offline = await goOffline(context);
    const reloaded = await door.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);

    await door.getByLabel("Código de la entrada").fill(shortCodes[1]);
    await door.getByLabel("Código de la entrada").press("Enter");
    await expect(door.getByRole("alert")).toContainText("Adelante");
    await expect(door.getByRole("alert")).toContainText("Sin conexión");
    await door.getByRole("button", { name: "Escanear otra" }).click();
    // Judged offline too: the same ticket again, and a made-up code.
    await door.getByLabel("Código de la entrada").fill(shortCodes[1]);
    await door.getByLabel("Código de la entrada").press("Enter");
    await expect(door.getByRole("alert")).toContainText("Ya ingresó");
    await door.getByRole("button", { name: "Escanear otra" }).click();
    await door.getByLabel("Código de la entrada").fill("ZZZZZ ZZZZZ");
    await door.getByLabel("Código de la entrada").press("Enter");
    await expect(door.getByRole("alert")).toContainText("Código no válido");
    await door.getByRole("button", { name: "Escanear otra" }).click();
    await expect(door.getByTestId("door-status")).toContainText("3 escaneos sin sincronizar");

    // A reload without network loses nothing the phone queued.
    await door.reload();
    await expect(door.getByTestId("door-status")).toContainText("3 escaneos sin sincronizar");

    await context.unroute("**", offline);
    await context.setOffline(false);
    await expect(door.getByTestId("door-status")).toHaveText("Con conexión", { timeout: 20_000 });

    // The team's live view has both entries.
    await signIn(page.context(), event.owner);
    await page.goto(`/vivos/${event.slug}`);
    await expect(page.getByTestId("live-entered")).toContainText("2 de 3");
    await context.close();
  } finally {
    await close();
  }
});
