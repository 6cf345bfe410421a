/**
 * The pages the accessibility and layout specs walk (decision 116): one organization with an event on sale, a
 * buyer with a paid purchase, a purchase waiting for payment, a bank transfer waiting for its receipt and a
 * coupon, all made through the domain (never the demo seed). Back-office sections come from the nav's own
 * definition, so a new section is checked as soon as it is in the nav.
 */
import { expect, type Browser, type Page } from "@playwright/test";
import { BACKOFFICE_LINKS, BO } from "#app/components/backoffice/nav";
import { ADMIN_LINKS } from "#app/components/admin/AdminNav";
import type { Factory } from "./fixtures";
import { seatTheEvent } from "./seating";

/**
 * Widest first, on purpose: the page checks load a page at the first size and resize it to the next (decision 143),
 * and what `prepare` opens on a phone would stay open if the phone came first.
 */
export const VIEWPORTS = [
  { name: "escritorio", width: 1366, height: 768 },
  { name: "teléfono", width: 390, height: 844 },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

/** A context at the first (widest) size, in Argentine Spanish and Buenos Aires time, where the page checks start. */
export function newContextAtWidest(browser: Browser) {
  const [widest] = VIEWPORTS;
  return browser.newContext({ viewport: { width: widest.width, height: widest.height }, locale: "es-AR", timezoneId: "America/Argentina/Buenos_Aires" });
}

/**
 * Runs `check` on a loaded page at every size, widest first, resizing the same page in between instead of loading
 * it again: our layout responds to the width with CSS alone (no script in app/ reads it), so the resized page is
 * the one that size gets (decision 143).
 */
export async function atEverySize(page: Page, check: (size: Viewport) => Promise<void>) {
  for (const size of VIEWPORTS) {
    if (size !== VIEWPORTS[0]) await page.setViewportSize({ width: size.width, height: size.height });
    expect(await page.evaluate(() => window.innerWidth), "el ancho de la ventana").toBe(size.width);
    await check(size);
  }
}

const PAYER = { firstName: "Sofía", lastName: "Peña", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 9 11 5555-1234" };

export type Site = Awaited<ReturnType<typeof makeSite>>;

export async function makeSite(factory: Factory) {
  const event = await factory.event({
    name: "Festival de Otoño",
    transferAccount: true,
    ticketTypes: [
      { name: "General", price: 1_500_000, stock: 100 },
      { name: "Entrada por transferencia", price: 1_200_000, stock: 50, paymentMethod: "BankAccount" },
      // Sold by seat (docs/seating.md): the event page links to its map and the back office has a map to show.
      { name: "Platea", price: 1_000_000, stock: 1, maxPerOrder: 6 },
    ],
  });
  const seatMapId = await seatTheEvent(event);
  const buyer = await factory.user({ firstName: "Lucía", lastName: "Benítez" });
  const [{ createOrder }, { payInSandbox }, { getDb }, { ctxAs, actorFor }, { createCoupon }, { createMenuItem }] = await Promise.all([
    import("#server/orders/orders"),
    import("#server/payment-notifications/sandbox"),
    import("#server/db/client"),
    import("#tests/support/context"),
    import("#server/coupons/coupons"),
    import("#server/menu/menu"),
  ]);
  const asBuyer = await ctxAs(actorFor(buyer));
  const order = (ticketId: string, paymentMethod: "MERCADO_PAGO" | "BANK_TRANSFER") =>
    createOrder(asBuyer, { eventSlug: event.slug, items: [{ ticketId, qty: 2 }], payer: { ...PAYER, email: buyer.email }, paymentMethod });
  const paid = await order(event.tickets.General.id, "MERCADO_PAGO");
  await payInSandbox(await getDb(), paid.billing.id, "approved");
  const pending = await order(event.tickets.General.id, "MERCADO_PAGO");
  const transfer = await order(event.tickets["Entrada por transferencia"].id, "BANK_TRANSFER");
  const ownerCtx = await ctxAs(actorFor(event.owner));
  await createCoupon(ownerCtx, { eventId: event.eventId, code: "OTONIO20", kind: "percent", percent: 20, maxUses: 50 });
  await createMenuItem(ownerCtx, { eventId: event.eventId, name: "Fernet con coca", description: "Vaso de 500 ml", category: "drink", price: "4500", stock: "50" });
  await createMenuItem(ownerCtx, { eventId: event.eventId, name: "Empanada de carne", category: "food", price: "1800", stock: "80" });
  return { event, seatMapId, buyer, paidOrderId: paid.order.id, paidBillingId: paid.billing.id, pendingBillingId: pending.billing.id, transferBillingId: transfer.billing.id };
}

export interface Visit {
  name: string;
  path: string;
  /** Signed in as: nobody, the buyer, the organization's owner or a platform admin. */
  as: "anonymous" | "buyer" | "owner" | "admin";
  /** Reached by a flow, not by its URL alone. */
  reach?: (page: Page) => Promise<void>;
  /** Run before checking (opens what starts closed on a phone). */
  prepare?: (page: Page) => Promise<void>;
}

/** On a phone, opens the back office's "Secciones" and "Filtros" so axe checks them too. */
async function openPhoneDisclosures(page: Page) {
  for (const selector of ["[data-backoffice-nav=phone]", "details[data-filters]"]) {
    const summary = page.locator(`${selector} > summary`);
    if (await summary.isVisible()) await summary.click();
  }
}

/** Event page → one ticket → "Comprar": the payer form (it needs the selection in the cart). */
async function toPayerInfo(page: Page, slug: string) {
  await page.goto(`/eventos/${slug}`);
  const main = page.locator("main");
  await main.getByLabel("Cantidad de General").first().fill("1");
  await main.getByRole("button", { name: /Comprar/ }).first().click();
  await expect(page).toHaveURL(new RegExp(`/checkout/payer-info/${slug}`));
}

export function buyerPages(site: Site): Visit[] {
  const slug = site.event.slug;
  return [
    { name: "inicio", path: "/", as: "anonymous" },
    { name: "página del evento", path: `/eventos/${slug}`, as: "anonymous" },
    { name: "página de la organización", path: `/${site.event.organizationSlug}`, as: "anonymous" },
    { name: "datos del comprador", path: `/checkout/payer-info/${slug}`, as: "buyer", reach: (page) => toPayerInfo(page, slug) },
    { name: "checkout", path: `/checkout/${site.pendingBillingId}`, as: "buyer" },
    { name: "transferencia bancaria", path: `/checkout/bank-transfer/${site.transferBillingId}`, as: "buyer" },
    { name: "mis tickets", path: "/cuenta/mis-tickets", as: "buyer" },
    { name: "entradas de una compra", path: `/tickets/${site.paidBillingId}`, as: "buyer" },
    { name: "ingresar", path: "/cuenta/iniciar-sesion", as: "anonymous" },
    { name: "crear cuenta", path: "/cuenta/registro", as: "anonymous" },
    { name: "botón de arrepentimiento", path: "/cuenta/devoluciones", as: "anonymous" },
    { name: "ayuda", path: "/ayuda", as: "anonymous" },
    { name: "para organizadores", path: "/organizador/landing", as: "anonymous" },
  ];
}

/** "Mis tickets" → "Enviar" on the first ticket: the form to send a ticket to someone else (its path needs the ticket's id). */
async function toSendTicket(page: Page) {
  await page.goto("/cuenta/mis-tickets");
  await page.locator("main").getByRole("link", { name: /Enviar/ }).first().click();
  await expect(page).toHaveURL(/\/cuenta\/mis-tickets\/enviar\//);
}

/** Mis tickets → "No puedo ir" on the first ticket (the withdrawal or the official resale). */
async function toCannotGo(page: Page) {
  await page.goto("/cuenta/mis-tickets");
  await page.locator("main").getByRole("link", { name: "No puedo ir" }).first().click();
  await expect(page).toHaveURL(/\/cuenta\/mis-tickets\/no-puedo-ir\//);
}

/**
 * A sold-out event whose only ticket its buyer lists in the official resale: with `offerTo`, that person waits
 * in its waiting list first and gets the listing as an offer (docs/resale.md, "Lista de espera primero").
 * Returns the listing's page, or the offer's.
 */
async function listedTicket(offerTo: { id: string; email: string } | null): Promise<string> {
  const [{ createEventWithTickets }, { createOrder }, { payInSandbox }, { getDb }, { ctxAs, actorFor, createTestUser }, { setEventWaitlist, joinWaitlist }, { listForResale }, schema, { eq }, { ticketsOfOrder }] =
    await Promise.all([
      import("#tests/support/factories"),
      import("#server/orders/orders"),
      import("#server/payment-notifications/sandbox"),
      import("#server/db/client"),
      import("#tests/support/context"),
      import("#server/waitlist/waitlist"),
      import("#server/resale/listings"),
      import("#server/db/schema"),
      import("drizzle-orm"),
      import("#server/tickets/issue"),
    ]);
  const db = await getDb();
  const made = await createEventWithTickets([{ name: "Campo", price: 1_000_000, stock: 1 }], { name: "Reventa Agotada", days: 20 });
  const seller = await createTestUser();
  const asSeller = await ctxAs(actorFor({ ...seller, roles: [] }));
  const { order, billing } = await createOrder(asSeller, { eventSlug: made.event.slug, items: [{ ticketId: made.tickets.Campo.id, qty: 1 }], payer: { ...PAYER, email: seller.email }, paymentMethod: "MERCADO_PAGO" });
  await payInSandbox(db, billing.id, "approved");
  if (offerTo) {
    await setEventWaitlist(made.ctx, { eventId: made.event.id, enabled: true });
    await joinWaitlist(await ctxAs(actorFor({ ...offerTo, roles: [] })), { eventSlug: made.event.slug, quantity: 1 });
  }
  const [ticket] = await ticketsOfOrder(db, order.id);
  const listing = await listForResale(asSeller, { ticketId: ticket.id, price: 1_000_000 });
  if (!offerTo) return `/reventa/${listing.id}`;
  const [offer] = await db.select().from(schema.waitlistOffers).where(eq(schema.waitlistOffers.listingId, listing.id));
  return `/lista-de-espera/oferta/${offer.id}`;
}

/** The mailbox → the newest email to the buyer (its path needs the email's id). */
async function toOneEmail(page: Page, site: Site) {
  await page.goto(`/dev/correos?to=${encodeURIComponent(site.buyer.email)}`);
  await page.locator("main a[href^='/dev/correos/']").first().click();
  await expect(page).toHaveURL(/\/dev\/correos\/[^/?]+$/);
}

/**
 * The rest of the buyer's pages, past the main ones axe checks: the layout spec walks them too (decision 116:
 * no horizontal overflow on any buyer page).
 */
export function moreBuyerPages(site: Site): Visit[] {
  return [
    { name: "compra aprobada", path: `/checkout/status/approved?billingId=${site.paidBillingId}`, as: "buyer" },
    { name: "enviar una entrada", path: "/cuenta/mis-tickets/enviar/…", as: "buyer", reach: toSendTicket },
    { name: "no puedo ir", path: "/cuenta/mis-tickets/no-puedo-ir/…", as: "buyer", reach: toCannotGo },
    { name: "mis listas de espera", path: "/cuenta/lista-de-espera", as: "buyer" },
    { name: "anotarse en la lista de espera", path: `/lista-de-espera/${site.event.slug}`, as: "buyer" },
    { name: "oferta de la lista de espera (reventa)", path: "/lista-de-espera/oferta/…", as: "buyer", reach: async (page) => void (await page.goto(await listedTicket(site.buyer))) },
    { name: "entrada de la reventa oficial", path: "/reventa/…", as: "buyer", reach: async (page) => void (await page.goto(await listedTicket(null))) },
    { name: "mi cuenta", path: "/cuenta/mi-cuenta", as: "buyer" },
    { name: "seguridad de la cuenta", path: "/cuenta/seguridad", as: "buyer" },
    { name: "ingresar con un link", path: "/cuenta/iniciar-sesion/email", as: "anonymous" },
    { name: "recuperar la contraseña", path: "/cuenta/solicitar-recuperacion", as: "anonymous" },
    { name: "términos y condiciones", path: "/terminos-y-condiciones", as: "anonymous" },
    { name: "página que no existe", path: "/eventos/no-existe-este-evento", as: "anonymous" },
    { name: "error del servidor", path: "/500", as: "anonymous" },
    // With no SMTP (as the end-to-end server runs) the mailbox is where a person on this machine reads every email.
    { name: "buzón de correos", path: `/dev/correos?to=${encodeURIComponent(site.buyer.email)}`, as: "anonymous" },
    { name: "un correo del buzón", path: "/dev/correos/…", as: "anonymous", reach: (page) => toOneEmail(page, site) },
    { name: "menú del evento", path: `/menu/${site.event.slug}`, as: "anonymous" },
    { name: "mapa de asientos", path: `/asientos/${site.event.slug}`, as: "anonymous" },
  ];
}

/** The organizer pages the accessibility spec checks (the list). */
export function organizerPages(site: Site): Visit[] {
  const main: [string, string][] = [
    ["resumen", BO.summary],
    ["mis eventos", BO.events],
    ["ventas", BO.sales],
    ["cupones", BO.coupons],
    ["cuentas bancarias", BO.bankAccounts],
    ["equipo", BO.team],
    ["acreditaciones", BO.accreditations],
    ["PIN de puerta", BO.staffPin],
    ["informes", BO.reports],
    ["transferencias bancarias", BO.bankTransfers],
    ["detalle de una venta", BO.order(site.paidOrderId)],
    ["venta que no existe", BO.order("00000000-0000-4000-8000-000000000000")],
    ["editar evento", BO.editEvent(site.event.slug)],
    ["lista de espera del evento", `/organizacion/eventos/${site.event.slug}/lista-de-espera`],
    ["reventa del evento", `/organizacion/eventos/${site.event.slug}/reventa`],
    ["QR dinámico del evento", BO.liveQr(site.event.slug)],
    ["mapas de asientos", "/organizacion/mapas"],
    ["editor de un mapa de asientos", `/organizacion/mapas/${site.seatMapId}`],
    ["asientos del evento", `/organizacion/eventos/${site.event.slug}/asientos`],
  ];
  return main.map(([name, path]) => ({ name, path, as: "owner" as const, prepare: path === BO.summary ? openPhoneDisclosures : undefined }));
}

/** Every back-office section in the nav, plus pages under them and the platform team's screens. */
export function backofficePages(site: Site): Visit[] {
  return [
    ...BACKOFFICE_LINKS.filter((link) => link.capability !== "promoters:sell").map((link) => ({ name: link.label, path: link.to, as: "owner" as const })),
    { name: "detalle de una venta", path: BO.order(site.paidOrderId), as: "owner" },
    { name: "editar evento", path: BO.editEvent(site.event.slug), as: "owner" },
    { name: "entradas del evento", path: BO.editTickets(site.event.slug), as: "owner" },
    { name: "nuevo cupón", path: `${BO.coupons}/nuevo`, as: "owner" },
    { name: "pedir una extracción", path: BO.newWithdrawal, as: "owner" },
    ...ADMIN_LINKS.map((link) => ({ name: link.label, path: link.to, as: "admin" as const })),
  ];
}

/**
 * What the browser would draw in its own language (an English one says "Please fill out this field", "mm/dd/yyyy",
 * "Choose File"): forms whose fields the browser would validate without `noValidate`, native date and time inputs,
 * and file inputs left visible (docs/wording.md, "Nada en inglés en pantalla").
 */
async function browserWords(page: Page) {
  return page.evaluate(() => {
    const name = (el: Element) => el.getAttribute("aria-label") ?? el.getAttribute("name") ?? el.getAttribute("action") ?? el.outerHTML.slice(0, 80);
    const validating = (el: Element) =>
      el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement
        ? el.willValidate && (el.required || ["email", "number", "url"].includes(el.type) || ["min", "max", "pattern", "minlength"].some((a) => el.hasAttribute(a)))
        : false;
    const bubbles = [...document.forms].filter((f) => !f.noValidate && [...f.elements].some(validating)).map((f) => `formulario sin noValidate: ${name(f)}`);
    const dates = [...document.querySelectorAll("input[type=date], input[type=datetime-local], input[type=time], input[type=month], input[type=week]")].map((i) => `fecha nativa: ${name(i)}`);
    const files = [...document.querySelectorAll<HTMLInputElement>("input[type=file]")].filter((i) => i.offsetWidth > 1 && i.offsetHeight > 1 && getComputedStyle(i).opacity !== "0").map((i) => `archivo nativo a la vista: ${name(i)}`);
    return [...bubbles, ...dates, ...files];
  });
}

export async function horizontalOverflow(page: Page) {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/** The layout checks of one page at the size it has now: no wider than the window, and nothing in the browser's English. */
export async function expectLayoutFits(page: Page, visit: Visit, size: Viewport) {
  const { scrollWidth, innerWidth } = await horizontalOverflow(page);
  expect(scrollWidth, `${visit.name} (${visit.path}) a ${size.width} px`).toBeLessThanOrEqual(innerWidth);
  expect(await browserWords(page), `${visit.name} (${visit.path}) a ${size.width} px`).toEqual([]);
}
