/**
 * The whole document as the server sends it: the real Remix build (through
 * Vite, as in `npm run dev`) answering real requests, with this file's test
 * database. Covers the shell, the theme, the pixel, 404/500 and the
 * disabled integrations (no SENTRY_DSN, no POSTHOG_KEY in tests).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import type { ViteDevServer } from "vite";
import { getDb } from "#server/db/client";
import { startSession } from "#server/auth/sessions";
import { createTestUser } from "#tests/support/context";
import { withContentSecurityPolicy } from "#server/http/csp";

let vite: ViteDevServer;
const cacheDir = path.join(os.tmpdir(), `tribuna-document-test-vite-${process.pid}`);
let handler: (request: Request) => Promise<Response>;
let pageHandler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  delete process.env.SENTRY_DSN;
  delete process.env.POSTHOG_KEY;
  const { createServer } = await import("vite");
  vite = await createServer({
    configFile: path.resolve("vite.config.ts"),
    // Its own cache: never touch node_modules/.vite, which running dev servers use.
    cacheDir,
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    appType: "custom",
    logLevel: "error",
  });
  const build = (await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild;
  const remix = createRequestHandler(build, "development");
  handler = (request) => remix(request);
  pageHandler = withContentSecurityPolicy((request, nonce) => remix(request, { cspNonce: nonce }));
}, 120_000);

afterAll(async () => {
  await vite?.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

const BASE = "http://localhost:3999";

async function get(pathname: string, cookie?: string) {
  const response = await handler(new Request(BASE + pathname, { headers: cookie ? { cookie } : {} }));
  return { response, html: await response.text() };
}

async function signedInCookie(roles: ("producer" | "admin")[] = []) {
  const user = await createTestUser({ firstName: "Valentina", roles });
  const tokens = await startSession(await getDb(), user, new Date());
  return `at=${tokens.accessToken}; rt=${tokens.refreshToken}`;
}

/** The opening tag of <html>. */
function htmlTag(html: string) {
  return html.match(/<html[^>]*>/)?.[0] ?? "";
}

describe("ad pixel (?pixelId=)", () => {
  it("loads nothing when the value is not all digits", async () => {
    for (const value of ["abc123", "123abc", "12 34", "1e5", "'-alert(1)-'", ""]) {
      const { response, html } = await get(`/?pixelId=${encodeURIComponent(value)}`);
      expect(response.status).toBe(200);
      expect(html).not.toContain("fbq(");
      expect(html).not.toContain("connect.facebook.net");
      expect(html).not.toContain("facebook.com/tr");
    }
  });

  it("loads the pixel with fbq('init', id) for an all-digit id, on any page", async () => {
    for (const page of ["/", "/ayuda", "/terminos-y-condiciones"]) {
      const { html } = await get(`${page}?pixelId=1234567890`);
      expect(html).toContain("fbq('init','1234567890')");
      expect(html).toContain("https://connect.facebook.net/en_US/fbevents.js");
    }
  });
});

describe("theme", () => {
  it("is dark by default, on <html>, from the server", async () => {
    const { html } = await get("/");
    expect(htmlTag(html)).toContain('class="dark"');
    expect(html).not.toContain("prefers-color-scheme: dark')");
  });

  it("follows the `theme` cookie", async () => {
    expect(htmlTag((await get("/", "theme=light")).html)).toContain('class="light"');
    expect(htmlTag((await get("/", "theme=dark")).html)).toContain('class="dark"');
    expect(htmlTag((await get("/", "theme=rosa")).html)).toContain('class="dark"');
  });

  it("for system, resolves the device's scheme before the first paint", async () => {
    const { html } = await get("/", "theme=system");
    expect(htmlTag(html)).toContain('class="system"');
    const head = html.slice(0, html.indexOf("</head>"));
    // The inline script runs in <head>, before any content is painted.
    expect(head).toMatch(/<script>\(function\(\)\{var d=window\.matchMedia\('\(prefers-color-scheme: dark\)'\)/);
  });

  it("has a real form that posts to /preferencias/tema", async () => {
    const { html } = await get("/ayuda");
    expect(html).toMatch(/<form method="post" action="\/preferencias\/tema"/);
    expect(html).toContain('name="redirectTo" value="/ayuda"');
    for (const value of ["dark", "light", "system"]) expect(html).toContain(`name="theme" value="${value}"`);
  });

  it("POST /preferencias/tema sets the cookie and goes back without JavaScript", async () => {
    const body = new URLSearchParams({ theme: "system", redirectTo: "/ayuda" });
    const response = await handler(new Request(`${BASE}/preferencias/tema`, { method: "POST", body }));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/ayuda");
    expect(response.headers.get("set-cookie")).toMatch(/^theme=system;/);
  });
});

describe("app shell", () => {
  it("signed out: logo, Eventos, Ayuda, Ingresar and Crear cuenta", async () => {
    const { html } = await get("/");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>.*?Tribuna/s);
    expect(html).toMatch(/href="\/"[^>]*>Eventos</);
    expect(html).toMatch(/href="\/ayuda"[^>]*>Ayuda</);
    expect(html).toMatch(/href="\/cuenta\/iniciar-sesion"[^>]*>Ingresar</);
    expect(html).toMatch(/href="\/cuenta\/registro"[^>]*>Crear cuenta</);
    expect(html).not.toContain("Cerrar sesión");
    expect(html).not.toContain("Mi organización");
    // The drawer toggle works without JavaScript.
    expect(html).toContain('id="menu-toggle" type="checkbox"');
    expect(html).toMatch(/<label for="menu-toggle"/);
    expect(html).toContain('href="/cuenta/devoluciones"');
  });

  it("signed in: first name to Mi cuenta, Mis tickets and a Cerrar sesión form", async () => {
    const { html } = await get("/", await signedInCookie());
    expect(html).toMatch(/href="\/cuenta\/mi-cuenta"[^>]*>Valentina</);
    expect(html).toMatch(/href="\/cuenta\/mis-tickets"[^>]*>Mis tickets</);
    expect(html).toMatch(/<form method="post" action="\/cuenta\/cerrar-sesion"[^>]*>\s*<button type="submit"[^>]*>Cerrar sesión<\/button>/);
    expect(html).not.toMatch(/href="\/cuenta\/iniciar-sesion"[^>]*>Ingresar</);
    expect(html).not.toContain("Mi organización");
    expect(html).not.toContain("Ingresar como otra persona");
  });

  it("organizers see Mi organización; admins see Ingresar como otra persona", async () => {
    const organizer = (await get("/", await signedInCookie(["producer"]))).html;
    expect(organizer).toMatch(/href="\/organizacion\/resumen"[^>]*>Mi organización</);
    expect(organizer).not.toContain("Ingresar como otra persona");

    const admin = (await get("/", await signedInCookie(["admin"]))).html;
    expect(admin).toMatch(/href="\/cuenta\/imperson"[^>]*>Ingresar como otra persona</);
    expect(admin).not.toContain("Mi organización");
  });

  it("shows the flash as a snackbar that closes without JavaScript, and clears the cookie", async () => {
    const flash = encodeURIComponent(JSON.stringify({ type: "success", message: "¡Todo genial! Guardamos tus datos" }));
    const { response, html } = await get("/ayuda", `flash=${flash}`);
    expect(html).toMatch(/role="status"[^>]*data-snackbar="success"/);
    expect(html).toContain("¡Todo genial! Guardamos tus datos");
    expect(html).toMatch(/<input id="snackbar-cerrar-0" type="checkbox"/);
    expect(response.headers.get("set-cookie")).toMatch(/flash=;/);
  });
});

describe("pages and errors", () => {
  it("unknown URLs answer 404 with the 404 page", async () => {
    for (const url of ["/esto/no/existe", "/cuenta/algo/que/no/esta"]) {
      const { response, html } = await get(url);
      expect(response.status).toBe(404);
      expect(html).toContain("No encontramos esta página");
      expect(html).toContain("Página no encontrada · Tribuna");
    }
  });

  it("/404 and /500", async () => {
    const notFound = await get("/404");
    expect(notFound.response.status).toBe(404);
    expect(notFound.html).toContain("No encontramos esta página");
    const error = await get("/500");
    expect(error.response.status).toBe(500);
    // Our fault and what to do, never the missing-data message.
    expect(error.html).toContain("Algo salió mal de nuestro lado");
    expect(error.html).toContain("Probá de nuevo en unos minutos");
    expect(error.html).not.toContain("faltó cargar");
  });

  it("/ayuda and /terminos-y-condiciones are real Spanish pages with headings", async () => {
    const help = (await get("/ayuda")).html;
    expect(help).toMatch(/<h1>Ayuda<\/h1>/);
    for (const text of ["Mercado Pago", "Transferencia bancaria", "Mis tickets", "código QR", "Botón de arrepentimiento"]) {
      expect(help).toContain(text);
    }
    const terms = (await get("/terminos-y-condiciones")).html;
    expect(terms).toMatch(/<h1>Términos y condiciones<\/h1>/);
    for (const text of ["Ley 24.240", "Disposición 954/2025", "Resolución 424/2020", "10 días corridos", "24 horas", "Ley 25.326", "Cargo por servicio"]) {
      expect(terms).toContain(text);
    }
    expect(terms.toLowerCase()).not.toContain("lorem");
  });
});

describe("integrations are off without their keys", () => {
  it("no analytics script and no Sentry DSN in the page", async () => {
    const { html } = await get("/");
    expect(html).not.toContain("posthog");
    expect(html).toContain('"SENTRY_DSN":null');
    expect(html).not.toMatch(/sentry\.client/);
  });

  it("/ingest answers 404 and /monitoring refuses envelopes", async () => {
    expect((await get("/ingest/decide?v=3")).response.status).toBe(404);
    const post = await handler(new Request(`${BASE}/ingest/e/`, { method: "POST", body: "{}" }));
    expect(post.status).toBe(404);
    const envelope = await handler(new Request(`${BASE}/monitoring`, { method: "POST", body: '{"dsn":"https://k@o1.ingest.sentry.io/1"}\n' }));
    expect(envelope.status).toBe(404);
  });
});

describe("Content-Security-Policy with a nonce per response", () => {
  async function page(pathname: string, cookie?: string) {
    const response = await pageHandler(new Request(BASE + pathname, { headers: cookie ? { cookie } : {} }));
    const policy = response.headers.get("content-security-policy") ?? "";
    return { policy, html: await response.text(), nonce: policy.match(/'nonce-([^']+)'/)?.[1] };
  }

  it("every script the page carries (Remix's, the theme's, the pixel's) has this response's nonce, and nothing else may run", async () => {
    const { policy, html, nonce } = await page("/?pixelId=1234567890", "theme=system");
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(policy).toContain(`script-src 'nonce-${nonce}' 'strict-dynamic'`);
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(3);
    for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);
    expect(html).toContain("fbq('init'");
    const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(preloads.length).toBeGreaterThan(0);
  });

  it("two responses never share a nonce", async () => {
    const first = await page("/ayuda");
    const second = await page("/ayuda");
    expect(first.nonce).toBeTruthy();
    expect(first.nonce).not.toBe(second.nonce);
    expect(second.html).not.toContain(first.nonce);
  });
});

describe("JavaScript after the first paint (decision 132)", () => {
  /** The document with every <template>…</template> taken out: what the browser fetches and runs while parsing. */
  const live = (html: string) => html.replace(/<template\b[^>]*>[\s\S]*?<\/template>/g, "");

  it("ships Remix's preloads and module script inert in <template>s, with the context script live and the loader after them", async () => {
    const response = await pageHandler(new Request(BASE + "/ayuda"));
    const html = await response.text();
    const templates = html.match(/<template data-tras-el-pintado="">[\s\S]*?<\/template>/g) ?? [];
    expect(templates).toHaveLength(2);
    expect(templates[0]).toMatch(/^<template[^>]*><link rel="modulepreload"/);
    expect(templates[0]).not.toContain("<script");
    expect(templates[1]).toMatch(/<script nonce="[^"]+" type="module" async="">/);
    expect(templates[1]).toContain("import(");

    const document = live(html);
    expect(document).not.toContain('rel="modulepreload"');
    expect(document).not.toContain('type="module"');
    // The context script stays live (the streamed loader data writes into its stream) and comes before the module script, as Remix writes it.
    expect(document).toContain("window.__remixContext = ");
    expect(html.indexOf("window.__remixContext = ")).toBeLessThan(html.indexOf(templates[1]));
    // The loader runs right after the module script's template, with this response's nonce.
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[1];
    const after = html.slice(html.indexOf(templates[1]) + templates[1].length);
    expect(after.startsWith(`<script nonce="${nonce}">`)).toBe(true);
    expect(after).toContain("template[data-tras-el-pintado]");
  });
});
