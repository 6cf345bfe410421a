import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, devices, type Route } from "@playwright/test";
import QRCode from "qrcode";
import { E2E_BASE_URL } from "./env";
import { expect, test, type Factory } from "./fixtures";
import { tonightWithPaidTickets } from "./support";

// `context.setOffline` does not reach a service worker's own fetches (microsoft/playwright#2311): with
// these events on, the test cuts them with a route too, so "offline" really is offline for the worker.
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = "1";

/**
 * A video Chromium's fake camera plays in a loop: the QR of `payload`, black
 * on white, in the middle of a 640×480 frame (YUV 4:2:0, Y4M).
 */
function qrVideo(payload: string): string {
  const qr = QRCode.create(payload, { errorCorrectionLevel: "M" });
  const size = qr.modules.size;
  const width = 640;
  const height = 480;
  const scale = Math.floor((height - 40) / (size + 8));
  const side = (size + 8) * scale;
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const y = Buffer.alloc(width * height, 235);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!qr.modules.get(row, col)) continue;
      for (let dy = 0; dy < scale; dy++) {
        const offset = (top + (row + 4) * scale + dy) * width + left + (col + 4) * scale;
        y.fill(16, offset, offset + scale);
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), y, chroma]);
  const file = path.join(os.tmpdir(), `tribuna-qr-${Date.now()}.y4m`);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]));
  return file;
}

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
  const video = qrVideo(qr);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${video}`],
  });
  try {
    const context = await browser.newContext({ ...devices["Pixel 5"], baseURL: E2E_BASE_URL, permissions: ["camera"], locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires" });
    const door = await context.newPage();
    await door.goto(`/vivos/acreditacion/${event.slug}`);
    await door.getByLabel("PIN de la puerta").fill(pin);
    await door.getByLabel("¿En qué puerta estás?").fill("Puerta 1");
    await door.getByRole("button", { name: "Abrir la puerta" }).click();
    await expect(door.getByTestId("door-status")).toHaveText("Con conexión");

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
    await expect
      .poll(() => door.evaluate(async () => Boolean(await (await caches.open("tribuna-tickets-v1")).match(location.href))), { timeout: 15_000 })
      .toBe(true);
    await expect.poll(() => door.evaluate(() => Object.keys(localStorage).some((k) => k.endsWith(":manifest")))).toBe(true);
    const offline = (route: Route) => (route.request().serviceWorker() ? route.abort("internetdisconnected") : route.continue());
    await context.setOffline(true);
    await context.route("**", offline);
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
    await browser.close();
    fs.rmSync(video, { force: true });
  }
});
