import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, devices, type Browser, type BrowserContext, type Page, type Route } from "@playwright/test";
import QRCode from "qrcode";
import { E2E_BASE_URL } from "./env";
import { expect } from "./fixtures";

// `context.setOffline` does not reach a service worker's own fetches (microsoft/playwright#2311): with
// these events on, the door specs cut them with a route too, so "offline" really is offline for the worker.
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
  const file = path.join(os.tmpdir(), `tribuna-qr-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.y4m`);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]));
  return file;
}

/** A phone-sized Chromium whose camera shows the QR of `payload`, allowed to use it. `close()` when done. */
export async function phoneWithCamera(payload: string): Promise<{ browser: Browser; context: BrowserContext; close: () => Promise<void> }> {
  const video = qrVideo(payload);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${video}`],
  });
  const context = await browser.newContext({ ...devices["Pixel 5"], baseURL: E2E_BASE_URL, permissions: ["camera"], locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires" });
  const close = async () => {
    await browser.close();
    fs.rmSync(video, { force: true });
  };
  return { browser, context, close };
}

/** Opens the event's door on `page` with its PIN, online. */
export async function openDoor(page: Page, slug: string, pin: string) {
  await page.goto(`/vivos/acreditacion/${slug}`);
  await page.getByLabel("PIN de la puerta").fill(pin);
  await page.getByLabel("¿En qué puerta estás?").fill("Puerta 1");
  await page.getByRole("button", { name: "Abrir la puerta" }).click();
  await expect(page.getByTestId("door-status")).toHaveText("Con conexión");
}

/** Waits until the door page and its manifest are kept on the phone (what lets it work offline). */
export async function doorKeptOffline(page: Page) {
  await expect.poll(() => page.evaluate(async () => Boolean(await (await caches.open("tribuna-tickets-v1")).match(location.href))), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).some((k) => k.endsWith(":manifest")))).toBe(true);
}

/** Cuts the network, the service worker's own fetches included. Returns the route handler to unroute later. */
export async function goOffline(context: BrowserContext) {
  const offline = (route: Route) => (route.request().serviceWorker() ? route.abort("internetdisconnected") : route.continue());
  await context.setOffline(true);
  await context.route("**", offline);
  return offline;
}
