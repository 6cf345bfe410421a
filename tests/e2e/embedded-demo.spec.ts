import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * The README's demo still starts with no configuration after payments
 * learned to fail closed: the production build (`npm start`, NODE_ENV
 * production) on the embedded database, with no DATABASE_URL, no Mercado
 * Pago and no AUTH_SECRET, serves the seeded events and says on every page
 * that payments are simulated. (server/env.test.ts proves the opposite
 * case: on PostgreSQL the same configuration refuses to start.)
 */
const PORT = 3197;

test.describe("la demo embebida", () => {
  test.setTimeout(180_000);
  let server: ChildProcess | undefined;
  let dataDir: string;

  // The first start seeds the demo with real purchases: on a busy CI machine that can take more than the
  // hook's default minute, so the hook gets the same budget as the start's own deadline below.
  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(180_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-demo-"));
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(PORT), DATA_DIR: dataDir };
    for (const key of ["DATABASE_URL", "AUTH_SECRET", "MERCADOPAGO_ACCESS_TOKEN", "MERCADOPAGO_WEBHOOK_SECRET", "PAYMENTS_SANDBOX", "SEED_DEMO", "APP_URL", "ENABLE_DEV_MAILBOX"]) delete env[key];
    server = spawn(process.execPath, ["scripts/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    server.stdout!.on("data", (chunk) => (output += chunk));
    server.stderr!.on("data", (chunk) => (output += chunk));
    const deadline = Date.now() + 150_000;
    while (!output.includes(`Tribuna en http://localhost:${PORT}`)) {
      if (server.exitCode !== null) throw new Error(`La demo no arrancó:\n${output}`);
      if (Date.now() > deadline) throw new Error(`La demo no arrancó a tiempo:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(output).toContain("Modo de prueba: los pagos son simulados");
  });

  test.afterAll(async () => {
    server?.kill("SIGTERM");
    await new Promise((resolve) => (server?.exitCode !== null ? resolve(null) : server.once("exit", resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("arranca sin configuración, con los eventos de demo y la franja de modo de prueba", async ({ page }) => {
    await page.goto(`http://localhost:${PORT}/`);
    await expect(page.getByTestId("test-mode-banner")).toHaveText("Modo de prueba: los pagos son simulados");
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Próximos eventos");
    await expect(page.locator("main a[href^='/eventos/']").first()).toBeVisible();
  });

  // No SMTP, no ENABLE_DEV_MAILBOX, no APP_URL (decision 114): the emails are read in /dev/correos from this
  // machine, the pages that send one say so, and a visitor on 127.0.0.1 gets links on 127.0.0.1.
  // Decision 132: the event's image is painted before the browser downloads any JavaScript, and the page still hydrates.
  test("la página de un evento pinta su imagen antes de bajar JavaScript, y después hidrata", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`http://localhost:${PORT}/`);
    const href = await page.locator("main a[href^='/eventos/']").first().getAttribute("href");
    await page.goto(`http://localhost:${PORT}${href}`);
    // Only the hydrated ticket picker says this (without JavaScript it says the total comes in the next step).
    await expect(page.locator("main").getByText(/Los precios ya incluyen el cargo de servicio/).first()).toBeVisible();
    const timing = await page.evaluate(async () => {
      // Element Timing entries only reach an observer (buffered), not performance.getEntriesByType.
      const heroPainted = await new Promise<number | null>((resolve) => {
        new PerformanceObserver((list, observer) => {
          const hero = list.getEntries().find((e) => (e as PerformanceEntry & { identifier: string }).identifier === "imagen-principal");
          if (!hero) return;
          observer.disconnect();
          resolve((hero as PerformanceEntry & { renderTime: number }).renderTime);
        }).observe({ type: "element", buffered: true });
        setTimeout(() => resolve(null), 3_000);
      });
      const scripts = performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname.endsWith(".js"));
      return {
        heroPainted,
        firstScript: Math.min(...scripts.map((e) => e.startTime)),
        scripts: scripts.length,
        templatesLeft: document.querySelectorAll("template[data-tras-el-pintado]").length,
      };
    });
    expect(timing.heroPainted).not.toBeNull();
    expect(timing.scripts).toBeGreaterThan(0);
    expect(timing.firstScript).toBeGreaterThanOrEqual(timing.heroPainted!);
    expect(timing.templatesLeft).toBe(0);
    expect(errors).toEqual([]);
  });

  test("recupera la contraseña con el código del buzón, desde 127.0.0.1", async ({ page }) => {
    const base = `http://127.0.0.1:${PORT}`;
    await page.goto(`${base}/cuenta/solicitar-recuperacion`);
    await page.locator('main form [name="email"]').fill("comprador@tribuna.ar");
    await page.locator('main form [type="submit"]').click();
    await expect(page).toHaveURL(`${base}/cuenta/recuperar?email=comprador%40tribuna.ar`);
    const notice = page.getByTestId("aviso-buzon");
    await expect(notice).toContainText("Como no hay un servidor de correo configurado");
    await notice.getByRole("link").click();
    await expect(page).toHaveURL(`${base}/dev/correos?to=comprador%40tribuna.ar`);
    await page.locator("main").getByRole("link", { name: /Tu código para recuperar la contraseña/ }).first().click();
    const code = (await page.getByTestId("email-text").innerText()).match(/\b(\d{6})\b/)?.[1];
    expect(code).toBeTruthy();
    await page.goto(`${base}/cuenta/recuperar?email=comprador%40tribuna.ar`);
    await page.locator('main form [name="code"]').fill(code!);
    await page.locator('main form [name="password"]').fill("nueva-clave-demo-1");
    await page.locator('main form [type="submit"]').click();
    await expect(page).toHaveURL(`${base}/`);
    await expect.poll(async () => (await page.context().cookies(base)).find((c) => c.name === "at")?.value ?? "").not.toBe("");
  });

  test("ingresa con el enlace del buzón, que vuelve a 127.0.0.1", async ({ page }) => {
    const base = `http://127.0.0.1:${PORT}`;
    await page.goto(`${base}/cuenta/iniciar-sesion`);
    await page.locator('main form [name="email"]').fill("rrpp@tribuna.ar");
    await page.locator('main form [type="submit"]').click();
    const notice = page.getByTestId("aviso-buzon");
    await expect(notice).toBeVisible();
    await notice.getByRole("link").click();
    const link = page.locator('main a[href*="/cuenta/enlace"]').first();
    await expect(link).toHaveAttribute("href", new RegExp(`^${base.replace(/\./g, "\\.")}/cuenta/enlace\\?token=`));
    await link.click();
    await expect(page).toHaveURL(new RegExp(`^${base.replace(/\./g, "\\.")}/cuenta/enlace`));
    await page.locator('main form [type="submit"]').first().click();
    await expect(page).toHaveURL(new RegExp(`^${base.replace(/\./g, "\\.")}/`));
    await expect.poll(async () => (await page.context().cookies(base)).find((c) => c.name === "at")?.value ?? "").not.toBe("");
  });

  test("el buzón no se abre desde otra máquina (detrás de un proxy sin TRUST_PROXY)", async ({ request }) => {
    const response = await request.get(`http://127.0.0.1:${PORT}/dev/correos`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(response.status()).toBe(404);
  });
});
