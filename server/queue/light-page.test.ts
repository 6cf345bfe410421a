import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDatabase, getDb, setDatabase, type Database } from "#server/db/client";
import { directRoute } from "#server/http/direct-route";
import { refuseHostileRequests } from "#server/http/request-guard";
import { securityHeaders } from "#server/http/security-headers";
import { createOrder } from "#server/orders/orders";
import { createTestUser, ctxAs, actorFor, sessionTokensFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { runAdmissionTick } from "./admitter";
import { verifyAdmission } from "./admission";
import { queueLightAnswer, queueLightListener, stylesheetsOf } from "./light-page";
import { queueMemory } from "./memory";
import { QUEUE_LIGHT_PATH } from "./poll-path";
import { joinQueue, queueInfo, queuePlace, setEventQueue } from "./queue";

const OPTIONS = { stylesheets: ["/assets/root-abc123.css"] };
const PAYER = { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };

/** What a person reads of the HTML: the text, spaces collapsed. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const cookieOf = (tokens: { accessToken: string; refreshToken: string }, extra = "") => `at=${tokens.accessToken}; rt=${tokens.refreshToken}${extra}`;

let server: http.Server;
let base: string;

beforeAll(async () => {
  // As server.ts serves it: the same guards as every other request, then the listener.
  const light = directRoute([securityHeaders({ https: false, setUpFront: true }), refuseHostileRequests()], queueLightListener(OPTIONS));
  server = http.createServer((req, res) => (QUEUE_LIGHT_PATH.test(req.url ?? "") ? light(req, res) : res.writeHead(418).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  queueMemory.forgetAll();
});

async function queueWith(opensInMs: number, options: { stock?: number; name?: string } = {}) {
  const made = await createEventWithTickets([{ name: "Campo", price: 1_000_000, stock: options.stock ?? 10 }], options.name ? { name: options.name } : {});
  await setEventQueue(made.ctx, { eventId: made.event.id, enabled: true, opensAt: new Date(Date.now() + opensInMs), admissionMinutes: 10, admitPerMinute: null });
  return made;
}

async function joined(slug: string) {
  const person = await createTestUser();
  await joinQueue(await ctxAs(actorFor(person)), slug);
  return { person, cookie: cookieOf(await sessionTokensFor(person.id)) };
}

async function ask(path: string, cookie = "", method = "GET") {
  const res = await fetch(base + path, { method, redirect: "manual", headers: cookie ? { cookie } : {} });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("GET /fila/{slug}/ahora: the queue without JavaScript, without Remix (decision 241)", () => {
  it("before the opening: a whole small page in es-AR with the app's stylesheet and theme, the countdown in Buenos Aires time, and its own refresh", async () => {
    const made = await queueWith(3600_000);
    const { person, cookie } = await joined(made.event.slug);
    const path = `/fila/${made.event.slug}/ahora`;
    const res = await ask(path, cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const html = res.text;
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="es-AR" class="dark"/);
    expect(html).toContain('<link rel="stylesheet" href="/assets/root-abc123.css">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).not.toContain("<script");
    // Landmarks, headings, a status region.
    expect(html).toMatch(/<main [^>]*>[\s\S]*<h1 [^>]*>[\s\S]*<section role="status" aria-labelledby="estado-fila"[^>]*data-queue-state="waiting"[\s\S]*<h2 id="estado-fila"/);

    const place = (await queuePlace(await ctxAs(actorFor(person)), made.event.slug))!;
    expect(html).toContain(`<meta http-equiv="refresh" content="${place.refreshSeconds}">`);
    const text = textOf(html);
    expect(text).toContain("La venta abre en");
    expect(text).toMatch(/La venta abre en (0 h 59 min|1 h 0 min|59:\d\d) /);
    expect(text).toContain("(hora de Buenos Aires).");
    expect(text).toContain("Ya estás en la fila.");
    expect(text).not.toContain("Sumarme a la fila");
    expect(text).toMatch(/Actualizado a las \d{2}:\d{2}:\d{2} · se actualiza sola cada \d+ s\. Si la cerrás no perdés tu lugar\./);
    expect(html).toContain(`href="/fila/${made.event.slug}"`);
    expect(text).toContain("Ver la página completa de la fila");
    expect(text).toContain("La semilla se revela cuando abre la venta.");
    expect(html).toMatch(/data-testid="draw-commitment">[0-9a-f]{64}</);

    // The theme the person chose; HEAD without a body; nothing but GET and HEAD.
    expect((await ask(path, `${cookie}; theme=light`)).text).toContain('<html lang="es-AR" class="light" data-theme="light">');
    expect((await ask(path, `${cookie}; theme=system`)).text).toContain('class="system"');
    expect((await ask(path, `${cookie}; theme=<b>`)).text).toContain('class="dark"');
    const head = await ask(path, cookie, "HEAD");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect((await ask(path, cookie, "POST")).status).toBe(405);
  });

  it("escapes the event's name everywhere it appears", async () => {
    const made = await queueWith(3600_000, { name: `<img src=x onerror="alert(1)"> & 'Cía'` });
    const { cookie } = await joined(made.event.slug);
    const answer = await queueLightAnswer(cookie, made.event.slug, OPTIONS);
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain("<img");
    expect(answer.body).not.toContain(`"alert(1)"`);
    expect(answer.body).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;Cía&#39;");
    expect(answer.body).toContain("<title>Fila virtual: &lt;img");
  });

  it("after the opening: the turn (with the admission cookie, as the full page sets it) and, behind it, the place, the people ahead and the estimate", async () => {
    const made = await queueWith(-1000);
    const first = await joined(made.event.slug);
    const second = await joined(made.event.slug);
    const third = await joined(made.event.slug);
    // 10 tickets, two per person expected before any order: the draw and the first turns.
    await runAdmissionTick(await getDb(), new Date());
    await queueMemory.settled(made.event.id);
    const answers = await Promise.all([first, second, third].map((p) => queueLightAnswer(p.cookie, made.event.slug, OPTIONS)));
    const admitted = answers.find((a) => a.body.includes('data-queue-state="admitted"'))!;
    expect(admitted).toBeDefined();
    const text = textOf(admitted.body);
    expect(text).toContain("¡Es tu turno!");
    expect(text).toMatch(/Tenés hasta las \d{2}:\d{2} para comprar \(te quedan (9:5\d|10:00) ?\)\. Si no comprás en ese tiempo, el lugar pasa a la persona que sigue\./);
    expect(admitted.body).toContain(`href="/eventos/${made.event.slug}"`);
    expect(text).toContain("Ir a comprar");
    expect(admitted.body).toMatch(/data-testid="draw-seed">[0-9a-f]{64}</);
    const setCookie = [admitted.headers["Set-Cookie"]].flat()[0] as string;
    expect(setCookie).toMatch(/^admision-fila=/);
    expect(setCookie).toContain("HttpOnly");
    const grant = verifyAdmission(decodeURIComponent(setCookie.split(";")[0].slice("admision-fila=".length)), new Date());
    expect(grant?.eventId).toBe(made.event.id);
  });

  it("waiting behind, sold out, and the queue turned off, each in the full page's words", async () => {
    // Two tickets, two per person expected: one turn at a time.
    const made = await queueWith(-1000, { stock: 2 });
    const people = [await joined(made.event.slug), await joined(made.event.slug), await joined(made.event.slug)];
    await runAdmissionTick(await getDb(), new Date());
    await queueMemory.settled(made.event.id);
    const states = async () => Promise.all(people.map(async (p) => (await queueLightAnswer(p.cookie, made.event.slug, OPTIONS)).body));
    const pages = await states();
    const turn = pages.findIndex((html) => html.includes('data-queue-state="admitted"'));
    expect(turn).toBeGreaterThanOrEqual(0);
    const waiting = pages.filter((html) => html.includes('data-queue-state="waiting"')).map(textOf);
    expect(waiting).toHaveLength(2);
    for (const text of waiting) {
      expect(text).toContain("Estás en la fila");
      expect(text).toMatch(/Tu lugar [23] Delante tuyo [01] personas?/);
      expect(text).toContain("Espera estimada:");
      expect(text).toContain("Es una estimación según el ritmo con que entra la gente");
    }

    // The admitted person buys both: everyone else reads «Agotado».
    await createOrder(await ctxAs(actorFor(people[turn].person)), { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.Campo.id, qty: 2 }], payer: PAYER, paymentMethod: "MERCADO_PAGO" });
    await runAdmissionTick(await getDb(), new Date());
    await queueMemory.settled(made.event.id);
    const after = await states();
    for (const [i, html] of after.entries()) {
      if (i === turn) continue;
      expect(html).toContain('data-queue-state="sold_out"');
      expect(textOf(html)).toContain("Agotado Se vendieron todas las entradas que había.");
    }

    // The organizer turns the queue off: closed, with the way to the event, and nothing left to refresh for.
    const { opensAt } = (await queueInfo(made.ctx, made.event.slug))!;
    await setEventQueue(made.ctx, { eventId: made.event.id, enabled: false, opensAt, admissionMinutes: 10, admitPerMinute: null });
    await queueMemory.settled(made.event.id);
    const closed = (await queueLightAnswer(people[(turn + 1) % 3].cookie, made.event.slug, OPTIONS)).body;
    expect(textOf(closed)).toContain("La fila está cerrada Ya no hace falta hacer fila para este evento");
    expect(closed).toContain(`href="/eventos/${made.event.slug}"`);
    expect(closed).not.toContain('http-equiv="refresh"');
  });

  it("without a session, with a sign-in only the full page can renew, without a place or without a queue: to the full page (303)", async () => {
    const made = await queueWith(3600_000);
    const slug = made.event.slug;
    const path = `/fila/${slug}/ahora`;
    const full = `/fila/${slug}`;
    const { person } = await joined(slug);
    const expectToFull = (res: { status: number; headers: Headers }, to = full) => {
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(to);
    };
    expectToFull(await ask(path));
    // Signed an hour ago: the access token expired; the page refreshes it.
    const old = await startSession(await getDb(), person, new Date(Date.now() - 3600_000));
    expectToFull(await ask(path, cookieOf(old)));
    expectToFull(await ask(path, `rt=${old.refreshToken}`));
    expectToFull(await ask(path, "at=no-es-un-token"));
    // Signed in but not in the queue: the full page offers to join.
    expectToFull(await ask(path, cookieOf(await sessionTokensFor((await createTestUser()).id))));
    expectToFull(await ask("/fila/no-existe-este-evento/ahora", cookieOf(await sessionTokensFor(person.id))), "/fila/no-existe-este-evento");
  });

  it("a waiting person's refresh never queries PostgreSQL", async () => {
    const made = await queueWith(-1000);
    const { cookie } = await joined(made.event.slug);
    await joined(made.event.slug);
    await runAdmissionTick(await getDb(), new Date());
    await queueMemory.settled(made.event.id);
    // The first refresh may read (the session, into this process's memory).
    expect((await queueLightAnswer(cookie, made.event.slug, OPTIONS)).status).toBe(200);

    const real = await getDatabase();
    const asked: string[] = [];
    const silent = new Proxy(real.db, {
      get(target, key, receiver) {
        if (key === "then" || typeof key === "symbol") return Reflect.get(target, key, receiver);
        asked.push(String(key));
        throw new Error(`La base no contesta (${String(key)})`);
      },
    });
    setDatabase({ ...real, db: silent } as Database);
    try {
      for (let refresh = 0; refresh < 3; refresh++) {
        const res = await ask(`/fila/${made.event.slug}/ahora`, cookie);
        expect(res.status).toBe(200);
        expect(res.text).toMatch(/data-queue-state="(waiting|admitted)"/);
      }
    } finally {
      setDatabase(real);
    }
    expect(asked).toEqual([]);
  });

  it("finds the app's stylesheet in the Remix build's manifest", () => {
    const build = { assets: { entry: { css: [] }, routes: { root: { css: ["/assets/root-BybFtgDR.css"] }, "routes/fila.$slug": { css: [] } } } };
    expect(stylesheetsOf(build)).toEqual(["/assets/root-BybFtgDR.css"]);
    expect(stylesheetsOf({})).toEqual([]);
  });
});
