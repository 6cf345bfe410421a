import { createElement } from "react";
import { afterAll, describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { QueuePage } from "#app/components/queue/QueuePage";
import type { QueuePageData } from "#app/components/queue/types";
import { setEventQueue } from "#server/queue/queue";
import { runAdmissionTick } from "#server/queue/admitter";
import { queueMemory } from "#server/queue/memory";
import { getDb, getDatabase, setDatabase, type Database } from "#server/db/client";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createMenuItem } from "#server/menu/menu";
import { createEventWithTickets } from "#tests/support/factories";
import { cookiesAfter, formRequest, getRequest, run } from "#tests/support/remix";
import { savedCartCookie } from "#app/lib/cart.server";
import * as queueRoute from "./fila.$slug";
import * as pollRoute from "./fila.$slug.estado";
import * as lightRoute from "./fila.$slug.ahora";
import * as eventPage from "./eventos.$slug";
import * as payerPage from "./checkout.payer-info.$eventSlug";
import * as menuPage from "./menu.$slug";
import * as root from "#app/root";

/** What a person reads of server-rendered HTML: the text, spaces collapsed. */
const textOf = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

async function eventWithQueue(opensInMs: number) {
  const made = await createEventWithTickets([{ name: "Campo", price: 1_000_000, stock: 10 }]);
  await setEventQueue(made.ctx, { eventId: made.event.id, enabled: true, opensAt: new Date(Date.now() + opensInMs), admissionMinutes: 10, admitPerMinute: null });
  return made;
}

async function render(page: QueuePageData) {
  return renderInRouter(createElement(QueuePage, { page }), { url: `/fila/${page.event.slug}`, loader: () => page });
}

afterAll(() => queueMemory.forgetAll());

describe("/fila/{slug}", () => {
  it("before the opening counts down, publishes the commitment and refreshes itself without JavaScript", async () => {
    const made = await eventWithQueue(3600_000);
    const path = `/fila/${made.event.slug}`;
    const page = await run<QueuePageData>(queueRoute.loader, getRequest(path), { slug: made.event.slug });
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.data.phase).toBe("before");
    expect(page.data.place).toBeNull();
    expect(page.data.drawCommitment).toMatch(/^[0-9a-f]{64}$/);
    expect(page.data.drawSeed).toBeNull();
    expect(page.data.refreshSeconds).toBeGreaterThan(0);

    const { html } = await render(page.data);
    expect(html).toContain(`<noscript><meta http-equiv="refresh" content="${page.data.refreshSeconds}"/></noscript>`);
    expect(html).toContain('aria-live="polite"');
    const text = textOf(html);
    expect(text).toContain("La venta abre en");
    expect(text).toMatch(/0 h 59 min|1 h 0 min/);
    expect(text).toContain("(hora de Buenos Aires)");
    expect(text).toContain("Sumarme a la fila");
    expect(text).toContain("Necesitás iniciar sesión");
    expect(text).toContain(page.data.drawCommitment!);
  });

  it("joining needs an account: an anonymous visitor signs in and comes back to the queue; a signed-in one gets a place", async () => {
    const made = await eventWithQueue(3600_000);
    const path = `/fila/${made.event.slug}`;
    const anonymous = await run(queueRoute.action, formRequest(path, {}), { slug: made.event.slug });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toContain("/cuenta/iniciar-sesion");
    expect(decodeURIComponent(Object.values(anonymous.cookies).find((c) => c.value.includes("/fila/"))?.value ?? "")).toContain(path);

    const buyer = await createTestUser();
    const jar = await sessionCookiesFor(buyer.id);
    const joined = await run(queueRoute.action, formRequest(path, {}, { cookies: jar }), { slug: made.event.slug });
    expect(joined.status).toBe(303);
    expect(joined.location).toBe(path);
    // Joining again (another tab, another device) is the same place.
    await run(queueRoute.action, formRequest(path, {}, { cookies: jar }), { slug: made.event.slug });
    const page = await run<QueuePageData>(queueRoute.loader, getRequest(path, { cookies: jar }), { slug: made.event.slug });
    expect(page.data.place?.status).toBe("WAITING");
    const { html } = await render(page.data);
    // With a place, the page refreshes itself without JavaScript to the light page served without Remix (decision 241).
    expect(html).toContain(`<noscript><meta http-equiv="refresh" content="${page.data.refreshSeconds};url=/fila/${made.event.slug}/ahora"/></noscript>`);
    expect(textOf(html)).toContain("Ya estás en la fila");
    expect(textOf(html)).not.toContain("Sumarme a la fila");
  });

  it("a waiting person's refresh of the page without JavaScript (the root's loader and the queue's) does not query PostgreSQL", async () => {
    const made = await eventWithQueue(3600_000);
    const slug = made.event.slug;
    const path = `/fila/${slug}`;
    const buyer = await createTestUser({ firstName: "Sofía" });
    const jar = await sessionCookiesFor(buyer.id);
    await run(queueRoute.action, formRequest(path, {}, { cookies: jar }), { slug });
    // The first page after joining may read (the session, into this process's memory).
    await run(root.loader, getRequest(path, { cookies: jar }), {});
    await run(queueRoute.loader, getRequest(path, { cookies: jar }), { slug });

    // From here on the database stops answering: anything asked of it fails the refresh, and is counted.
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
        const shell = await run<root.RootData>(root.loader, getRequest(path, { cookies: jar }), {});
        const page = await run<QueuePageData>(queueRoute.loader, getRequest(path, { cookies: jar }), { slug });
        expect(shell.status).toBe(200);
        expect(page.status).toBe(200);
        expect(page.data.signedIn).toBe(true);
        expect(page.data.place?.status).toBe("WAITING");
      }
    } finally {
      setDatabase(real);
    }
    expect(asked).toEqual([]);

    // Any other page still shows who is signed in.
    const home = await run<root.RootData>(root.loader, getRequest("/", { cookies: jar }), {});
    expect(home.data.user?.firstName).toBe("Sofía");
    // With JavaScript, following "Ir a comprar" from the queue reads the root again, so the header shows the account.
    const revalidate = (from: string, to: string) =>
      root.shouldRevalidate({ currentUrl: new URL(from, "http://x"), nextUrl: new URL(to, "http://x"), defaultShouldRevalidate: false } as Parameters<typeof root.shouldRevalidate>[0]);
    expect(revalidate(path, `/eventos/${slug}`)).toBe(true);
    expect(revalidate(`/eventos/${slug}`, "/")).toBe(false);
  });

  it("while the queue is on, the event page, the picker, the payer page and the menu send a person without a turn to the queue", async () => {
    const made = await eventWithQueue(3600_000);
    const slug = made.event.slug;
    const buyer = await createTestUser();
    const jar = await sessionCookiesFor(buyer.id);
    const queue = `/fila/${slug}`;

    for (const cookies of [{}, jar]) {
      const page = await run(eventPage.loader, getRequest(`/eventos/${slug}`, { cookies }), { slug });
      expect(page.location).toBe(queue);
    }
    const picked = await run(eventPage.action, formRequest(`/eventos/${slug}`, { [`qty-${made.tickets.Campo.id}`]: "1" }, { cookies: jar }), { slug });
    expect(picked.status).toBe(303);
    expect(picked.location).toBe(queue);

    const [cartPair] = savedCartCookie(slug, { items: [{ ticketId: made.tickets.Campo.id, qty: 1 }] }).split(";");
    const withCart = { ...jar, [cartPair.slice(0, cartPair.indexOf("="))]: cartPair.slice(cartPair.indexOf("=") + 1) };
    const payer = await run(payerPage.loader, getRequest(`/checkout/payer-info/${slug}`, { cookies: withCart }), { eventSlug: slug });
    expect(payer.location).toBe(queue);
    const bought = await run(
      payerPage.action,
      formRequest(
        `/checkout/payer-info/${slug}`,
        { firstName: "Sofía", lastName: "Peña", email: "sofia@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
        { cookies: withCart },
      ),
      { eventSlug: slug },
    );
    expect(bought.location).toBe(queue);

    // The menu: picking is only a cookie; pricing the order (the payer step) is refused like the tickets.
    const fernet = await createMenuItem(made.ctx, { eventId: made.event.id, name: "Fernet con coca", category: "drink", price: "4500", stock: "3" });
    const menuPicked = await run(menuPage.action, formRequest(`/menu/${slug}`, { intent: "pick", [`qty.${fernet.id}`]: "1" }, { cookies: jar }), { slug });
    const menuJar = cookiesAfter(menuPicked, jar);
    const payerStep = await run(menuPage.loader, getRequest(`/menu/${slug}?paso=datos`, { cookies: menuJar }), { slug });
    expect(payerStep.location).toBe(queue);
  });

  it("after the opening a person's turn comes: the page says so, sets the admission cookie, and the event page and the picker let them buy", async () => {
    const made = await eventWithQueue(-5_000);
    const slug = made.event.slug;
    const path = `/fila/${slug}`;
    const buyer = await createTestUser();
    const jar = await sessionCookiesFor(buyer.id);
    await run(queueRoute.action, formRequest(path, {}, { cookies: jar }), { slug });
    await runAdmissionTick(await getDb(), new Date(Date.now() + 1000));
    await queueMemory.settled(made.event.id);

    const page = await run<QueuePageData>(queueRoute.loader, getRequest(path, { cookies: jar }), { slug });
    expect(page.data.phase).toBe("open");
    expect(page.data.place?.status).toBe("ADMITTED");
    expect(page.data.drawSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(page.cookies["admision-fila"]?.value).toBeTruthy();
    const { html } = await render(page.data);
    const text = textOf(html);
    expect(text).toContain("¡Es tu turno!");
    expect(text).toMatch(/Tenés hasta las \d{2}:\d{2} para comprar/);
    expect(html).toContain(`href="/eventos/${slug}"`);

    const admitted = cookiesAfter(page, jar);
    const eventView = await run(eventPage.loader, getRequest(`/eventos/${slug}`, { cookies: admitted }), { slug });
    expect(eventView.status).toBe(200);
    const picked = await run(eventPage.action, formRequest(`/eventos/${slug}`, { [`qty-${made.tickets.Campo.id}`]: "1" }, { cookies: admitted }), { slug });
    expect(picked.location).toBe(`/checkout/payer-info/${slug}`);
    // Another account, without a turn, is still sent to the queue.
    const other = await sessionCookiesFor((await createTestUser()).id);
    expect((await run(eventPage.loader, getRequest(`/eventos/${slug}`, { cookies: other }), { slug })).location).toBe(path);
  });

  it("/fila/{slug}/estado through Remix (development, other spellings) answers the same small JSON as server.ts's direct route", async () => {
    const made = await eventWithQueue(3600_000);
    const buyer = await createTestUser();
    const jar = await sessionCookiesFor(buyer.id);
    await run(queueRoute.action, formRequest(`/fila/${made.event.slug}`, {}, { cookies: jar }), { slug: made.event.slug });
    const res = (await pollRoute.loader({ request: getRequest(`/fila/${made.event.slug}/estado`, { cookies: jar }), params: { slug: made.event.slug }, context: {} })) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ phase: "before", place: { status: "WAITING" } });
  });

  it("/fila/{slug}/ahora through Remix (development, other spellings) answers the same light page as server.ts's direct route", async () => {
    const made = await eventWithQueue(3600_000);
    const buyer = await createTestUser();
    const jar = await sessionCookiesFor(buyer.id);
    await run(queueRoute.action, formRequest(`/fila/${made.event.slug}`, {}, { cookies: jar }), { slug: made.event.slug });
    const load = (cookies: Record<string, string>) =>
      lightRoute.loader({ request: getRequest(`/fila/${made.event.slug}/ahora`, { cookies }), params: { slug: made.event.slug }, context: {} }) as Promise<Response>;
    const res = await load(jar);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const text = textOf(await res.text());
    expect(text).toContain("La venta abre en");
    expect(text).toContain("Ya estás en la fila");
    // Without a session: to the full page, which offers to sign in and join.
    const anonymous = await load({});
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("Location")).toBe(`/fila/${made.event.slug}`);
  });
});
