import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { eventCustomFields, eventDates, events, memberships, organizations, ticketTypes, users } from "#server/db/schema";
import { getPublicEvent } from "#server/events/catalogue";
import { PUBLISH_MESSAGES } from "#server/events/events";
import { FORCED_LOGIN_PATH } from "#app/lib/session.server";
import { createTestUser } from "#tests/support/context";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { fakeImage, realImage } from "#tests/support/images";
import { BASE_URL, formRequest, getRequest, run, type RouteResult } from "#tests/support/remix";
import { CLIENT_IP_HEADER } from "#server/auth/request-auth";
import * as shell from "./organizacion";
import * as porCrear from "./organizacion.por-crear";
import * as detalle from "./organizacion.detalle";
import * as resumen from "./organizacion.resumen";
import * as crear from "./organizacion.evento.crear";
import * as condiciones from "./organizacion.condiciones-de-servicio.$eventId";
import * as congrats from "./organizacion.congrats-evento";
import * as misEventos from "./organizacion.mis-eventos";
import * as editar from "./organizacion.evento.editar.$slug";
import * as tickets from "./organizacion.evento.editar.tickets.$slug";
import * as tiposDeTicket from "./organizacion.tipos-de-ticket";
import * as agregarEntradas from "./organizacion.agregar-entradas";
import * as camposPersonalizados from "./organizacion.eventos.$slug.campos-personalizados";
import * as pixel from "./organizacion.marketing-pixel";

// Uploads of this file go to a throwaway folder (env() is read lazily, after this line).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-organizacion-"));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const SAVE_SUCCESS = "¡Todo genial! Guardamos tus datos";
const SAVE_ERROR = "Upppsss... parece que te faltó cargar algunos datos.";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

type Cookies = Record<string, string>;

/** The cookies of a signed-in browser (a real session: `at` and `rt`). */
async function signedIn(user: { id: string; email: string; roles: string[] }): Promise<Cookies> {
  const tokens = await startSession(await getDb(), user, new Date());
  return { at: tokens.accessToken, rt: tokens.refreshToken };
}

async function producer() {
  const p = await createProducer();
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, p.user.id));
  return { ...p, cookies: await signedIn(user) };
}

/** Like `run`, but a thrown `data(…, { status })` (403/404 pages) is a result too. */
async function page<T = any>(fn: (args: any) => unknown, request: Request, params: Record<string, string> = {}): Promise<RouteResult<T>> {
  try {
    return await run<T>(fn, request, params);
  } catch (error) {
    const e = error as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (e?.type === "DataWithResponseInit") {
      return { status: e.init?.status ?? 200, headers: new Headers(e.init?.headers), location: null, cookies: {}, data: e.data as T };
    }
    throw error;
  }
}

function multipartRequest(pathname: string, fields: Record<string, string>, files: Record<string, { bytes: Uint8Array<ArrayBuffer>; name: string; type: string }>, cookies: Cookies) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, file] of Object.entries(files)) body.append(name, new File([file.bytes], file.name, { type: file.type }));
  const headers = new Headers({ cookie: Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join("; ") });
  headers.set(CLIENT_IP_HEADER, "198.51.100.20");
  return new Request(new URL(pathname, BASE_URL), { method: "POST", body, headers });
}

function flashOf(result: RouteResult) {
  const raw = result.cookies.flash?.value;
  return raw ? JSON.parse(raw) : null;
}

/** A complete "Crear evento" form: two dates, two ticket types, as a browser posts it. */
function eventForm(organizationId: string, overrides: Record<string, string> = {}) {
  return {
    organizationId,
    intent: "create",
    name: "Noche de Chamamé",
    category: "recitales",
    description: "Dos noches de chamamé en vivo.",
    minAge: "18",
    "dates[0].startsAt": "2030-12-20T21:30",
    "dates[0].endsAt": "2030-12-21T02:00",
    "dates[0].doorsAt": "2030-12-20T20:30",
    "dates[1].startsAt": "2030-12-21T21:30",
    "dates[1].endsAt": "2030-12-22T02:00",
    "dates[1].doorsAt": "",
    venueName: "Club Atlético Fernández Fierro",
    venueAddress: "Sánchez de Bustamante 772",
    city: "Buenos Aires",
    province: "AR-CF",
    "ticketTypes[0].name": "General",
    "ticketTypes[0].price": "1.500,50",
    "ticketTypes[0].stock": "200",
    "ticketTypes[0].minPerOrder": "1",
    "ticketTypes[0].maxPerOrder": "6",
    "ticketTypes[0].paymentMethod": "MercadoPagoAccount",
    "ticketTypes[0].accessCode": "",
    "ticketTypes[0].description": "",
    "ticketTypes[1].name": "Invitados",
    "ticketTypes[1].price": "0",
    "ticketTypes[1].stock": "20",
    "ticketTypes[1].minPerOrder": "",
    "ticketTypes[1].maxPerOrder": "",
    "ticketTypes[1].paymentMethod": "BankAccount",
    "ticketTypes[1].hidden": "on",
    "ticketTypes[1].accessCode": "AMIGOS",
    "ticketTypes[1].description": "",
    ...overrides,
  };
}

async function eventBySlug(slug: string) {
  const db = await getDb();
  const [event] = await db.select().from(events).where(eq(events.slug, slug));
  return event;
}

describe("back-office shell", () => {
  it("sends an anonymous visitor to the forced login, remembering the page", async () => {
    const result = await page(shell.loader, getRequest("/organizacion/mis-eventos?eventId=x"));
    expect(result.status).toBe(302);
    expect(result.location).toBe(FORCED_LOGIN_PATH);
    expect(result.cookies["loggin-callback"].value).toBe("/organizacion/mis-eventos?eventId=x");
  });

  it("sends a user without organizations to /organizacion/por-crear (but lets them stay there)", async () => {
    const user = await createTestUser();
    const cookies = await signedIn(user);
    const result = await page(resumen.loader, getRequest("/organizacion/resumen", { cookies }));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/organizacion/por-crear");
    expect((await page(shell.loader, getRequest("/organizacion/resumen", { cookies }))).location).toBe("/organizacion/por-crear");
    const create = await page(shell.loader, getRequest("/organizacion/por-crear", { cookies }));
    expect(create.status).toBe(200);
    expect(create.data.organization).toBeNull();
  });

  it("defaults to the user's first organization, keeps the filters from the URL and drops ids that are not theirs", async () => {
    const { cookies, organization, ctx } = await producer();
    const { event, date } = await createPublishedEvent(ctx, organization.id, { name: "Peña del Shell" });
    const result = await page(shell.loader, getRequest(`/organizacion/resumen?eventId=${event.id}&eventDateId=${date.id}&fromDate=&userId=u1`, { cookies }));
    expect(result.status).toBe(200);
    const data = result.data;
    expect(data.organization.id).toBe(organization.id);
    expect(data.filters).toMatchObject({ organizationId: organization.id, eventId: event.id, eventDateId: date.id, userId: "u1", opts: { fromDate: "" } });
    expect(data.events.map((e: { name: string }) => e.name)).toContain("Peña del Shell");
    expect(data.dates).toHaveLength(1);
    expect(data.roleLabel).toBe("Dueño/a");
    expect(data.can).toMatchObject({ "organization:manage": true, "events:manage": true });
    // The default organization is not repeated in links; the cleared window is.
    expect(data.query).toBe(`?userId=u1&eventId=${event.id}&eventDateId=${date.id}&fromDate=`);

    const other = await page(shell.loader, getRequest(`/organizacion/resumen?eventId=00000000-0000-4000-8000-000000000000`, { cookies }));
    expect(other.data.filters.eventId).toBe("");
  });

  it("shows staff only the links their role allows", async () => {
    const owner = await producer();
    const staff = await createTestUser();
    const db = await getDb();
    await db.insert(memberships).values({ organizationId: owner.organization.id, userId: staff.id, role: "staff" });
    const cookies = await signedIn(staff);
    const result = await page(shell.loader, getRequest("/organizacion/resumen", { cookies }));
    expect(result.data.roleLabel).toBe("Staff");
    expect(result.data.can).toMatchObject({ "door:operate": true, "sales:read": false, "events:manage": false, "organization:manage": false });
    expect(result.data.events).toEqual([]);
    // Pages their role does not allow are a 403 page, not a crash.
    expect((await page(crear.loader, getRequest("/organizacion/evento/crear", { cookies }))).status).toBe(403);
    expect((await page(detalle.loader, getRequest("/organizacion/detalle", { cookies }))).status).toBe(403);
    const summary = await page(resumen.loader, getRequest("/organizacion/resumen", { cookies }));
    expect(summary.status).toBe(200);
    expect(summary.data.events).toBeNull();
  });
});

describe("/organizacion/por-crear", () => {
  it("creates the organization with its logo, makes the user owner and producer, and lands on the summary with the success snackbar", async () => {
    const user = await createTestUser();
    const cookies = await signedIn(user);
    const result = await page(
      porCrear.action,
      multipartRequest(
        "/organizacion/por-crear",
        { name: "La Peña de Ñuñoa", slug: "", cuit: "30-71234567-1", contactEmail: "Hola@Pena.com.ar", contactPhone: "", description: "Peñas folklóricas.", logoUrl: "" },
        { logo: { bytes: await realImage("png"), name: "logo.png", type: "image/png" } },
        cookies,
      ),
    );
    expect(result.status).toBe(302);
    const db = await getDb();
    const [organization] = await db.select().from(organizations).where(eq(organizations.slug, "la-pena-de-nunoa"));
    expect(organization).toBeDefined();
    expect(result.location).toBe(`/organizacion/resumen?organizationId=${organization.id}`);
    expect(flashOf(result)).toEqual({ type: "success", message: SAVE_SUCCESS });
    expect(organization.cuit).toBe("30712345671");
    expect(organization.contactEmail).toBe("hola@pena.com.ar");
    expect(organization.logoUrl).toMatch(/^\/imagenes\/[a-f0-9]{32}-64\.webp$/);
    expect(fs.existsSync(path.join(dataDir, "uploads", organization.logoUrl!.split("/").pop()!))).toBe(true);
    const [member] = await db.select().from(memberships).where(eq(memberships.organizationId, organization.id));
    expect(member).toMatchObject({ userId: user.id, role: "owner" });
    const [after] = await db.select().from(users).where(eq(users.id, user.id));
    expect(after.roles).toContain("producer");
  });

  it("answers 400 with the CUIT message next to the field and the save-error snackbar, keeping what was typed", async () => {
    const user = await createTestUser();
    const cookies = await signedIn(user);
    const result = await page(
      porCrear.action,
      formRequest("/organizacion/por-crear", { name: "Productora Mala", slug: "productora-mala", cuit: "30-71234567-2", contactEmail: "x@y.com", contactPhone: "", description: "" }, { cookies }),
    );
    expect(result.status).toBe(400);
    expect(result.data.errors.cuit).toEqual(["Ingresá un CUIT válido (11 números, revisá el dígito verificador)"]);
    expect(result.data.values.name).toBe("Productora Mala");
    expect(result.data.snackbar).toEqual({ type: "error", message: SAVE_ERROR });
    const db = await getDb();
    expect(await db.select().from(organizations).where(eq(organizations.slug, "productora-mala"))).toHaveLength(0);
  });

  it("refuses a logo that is not JPG, PNG or WebP and creates nothing", async () => {
    const user = await createTestUser();
    const cookies = await signedIn(user);
    const result = await page(
      porCrear.action,
      multipartRequest(
        "/organizacion/por-crear",
        { name: "Con Logo GIF", slug: "con-logo-gif", cuit: "30-71234567-1", contactEmail: "a@b.com" },
        { logo: { bytes: Uint8Array.from(Buffer.from("GIF89a....")), name: "logo.png", type: "image/png" } },
        cookies,
      ),
    );
    expect(result.status).toBe(400);
    expect(result.data.errors.logo).toEqual(["La imagen tiene que ser JPG, PNG o WebP"]);
    const db = await getDb();
    expect(await db.select().from(organizations).where(eq(organizations.slug, "con-logo-gif"))).toHaveLength(0);
  });
});

describe("/organizacion/detalle", () => {
  it("lets the owner edit the organization and explains a reserved link next to the field", async () => {
    const { cookies, organization } = await producer();
    const loaded = await page(detalle.loader, getRequest("/organizacion/detalle", { cookies }));
    expect(loaded.data.organization).toMatchObject({ id: organization.id, cuit: "30-71234567-1" });
    const fields = { ...loaded.data.organization, name: "Productora Renovada", slug: "productora-renovada", description: "Ahora con peñas." };
    const saved = await page(detalle.action, formRequest("/organizacion/detalle", fields, { cookies }));
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/organizacion/detalle");
    expect(flashOf(saved)).toEqual({ type: "success", message: SAVE_SUCCESS });
    const db = await getDb();
    const [after] = await db.select().from(organizations).where(eq(organizations.id, organization.id));
    expect(after).toMatchObject({ name: "Productora Renovada", slug: "productora-renovada", description: "Ahora con peñas." });

    const reserved = await page(detalle.action, formRequest("/organizacion/detalle", { ...fields, slug: "eventos" }, { cookies }));
    expect(reserved.status).toBe(400);
    expect(reserved.data.errors.slug).toEqual(["Ese link está reservado, elegí otro"]);
  });
});

describe("/organizacion/evento/crear", () => {
  it("saves a draft event with its dates in Buenos Aires time and its tickets in centavos, then goes to the service conditions", async () => {
    const { cookies, organization } = await producer();
    const result = await page(crear.action, formRequest("/organizacion/evento/crear", eventForm(organization.id), { cookies }));
    expect(result.status).toBe(302);
    const event = await eventBySlug("noche-de-chamame");
    expect(event).toBeDefined();
    expect(result.location).toBe(`/organizacion/condiciones-de-servicio/${event.id}?eventId=${event.id}`);
    expect(flashOf(result)).toEqual({ type: "success", message: "Creamos tu evento. Ahora aceptá las condiciones de servicio para publicarlo." });
    expect(event).toMatchObject({ organizationId: organization.id, name: "Noche de Chamamé", category: "recitales", minAge: 18, province: "AR-CF", publishedAt: null });

    const db = await getDb();
    const dates = await db.select().from(eventDates).where(eq(eventDates.eventId, event.id)).orderBy(eventDates.startsAt);
    expect(dates.map((d) => d.startsAt.toISOString())).toEqual(["2030-12-21T00:30:00.000Z", "2030-12-22T00:30:00.000Z"]);
    expect(dates[0].endsAt.toISOString()).toBe("2030-12-21T05:00:00.000Z");
    expect(dates[0].doorsAt?.toISOString()).toBe("2030-12-20T23:30:00.000Z");
    expect(dates[1].doorsAt).toBeNull();

    const saved = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id)).orderBy(ticketTypes.sortOrder);
    expect(saved.map((t) => [t.name, t.price, t.stock, t.minPerOrder, t.maxPerOrder, t.paymentMethod, t.hidden, t.accessCode])).toEqual([
      ["General", 150050, 200, 1, 6, "MercadoPagoAccount", false, null],
      ["Invitados", 0, 20, 1, 10, "BankAccount", true, "AMIGOS"],
    ]);
    // A draft is not in the catalogue yet.
    await expect(getPublicEvent({ db, actor: { kind: "anonymous" }, now: new Date() }, event.slug)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("shows the domain's message next to the second date's end and the second ticket's price, keeping everything typed", async () => {
    const { cookies, organization } = await producer();
    const form = eventForm(organization.id, { name: "Evento Con Errores", "dates[1].endsAt": "2030-12-21T20:00", "ticketTypes[1].price": "mil pesos" });
    const result = await page(crear.action, formRequest("/organizacion/evento/crear", form, { cookies }));
    expect(result.status).toBe(400);
    expect(result.data.errors["dates.1.endsAt"]).toEqual(["El fin tiene que ser después del inicio"]);
    expect(result.data.errors["ticketTypes.1.price"]).toEqual(["Ingresá un precio válido (por ejemplo 1500 o 1.500,50)"]);
    expect(result.data.errors["dates.0.endsAt"]).toBeUndefined();
    expect(result.data.snackbar).toEqual({ type: "error", message: SAVE_ERROR });
    expect(result.data.values["ticketTypes[0].price"]).toBe("1.500,50");
    expect(result.data.values["dates[1].endsAt"]).toBe("2030-12-21T20:00");
    expect(await eventBySlug("evento-con-errores")).toBeUndefined();
  });

  it("'Agregar otra fecha' and 'Quitar' re-render the form with one row more or less, without saving", async () => {
    const { cookies, organization } = await producer();
    const added = await page(crear.action, formRequest("/organizacion/evento/crear", eventForm(organization.id, { name: "Filas", intent: "add:dates" }), { cookies }));
    expect(added.status).toBe(200);
    expect(added.data.values).toMatchObject({ "dates[2].startsAt": "", "dates[1].startsAt": "2030-12-21T21:30" });
    expect(added.data.errors).toEqual({});
    const removed = await page(crear.action, formRequest("/organizacion/evento/crear", eventForm(organization.id, { name: "Filas", intent: "remove:ticketTypes:0" }), { cookies }));
    expect(removed.data.values["ticketTypes[0].name"]).toBe("Invitados");
    expect(removed.data.values["ticketTypes[1].name"]).toBeUndefined();
    expect(await eventBySlug("filas")).toBeUndefined();
  });

  it("uploads the event image with the form and keeps it when the form comes back with errors", async () => {
    const { cookies, organization } = await producer();
    const bad = await page(
      crear.action,
      multipartRequest("/organizacion/evento/crear", eventForm(organization.id, { name: "Con Imagen", venueName: "" }), { image: { bytes: await realImage("png"), name: "flyer.png", type: "image/png" } }, cookies),
    );
    expect(bad.status).toBe(400);
    expect(bad.data.errors.venueName).toEqual(["Este campo es obligatorio"]);
    const imageUrl = bad.data.values.imageUrl;
    expect(imageUrl).toMatch(/^\/imagenes\/[a-f0-9]{32}-64\.webp$/);

    const good = await page(crear.action, multipartRequest("/organizacion/evento/crear", eventForm(organization.id, { name: "Con Imagen", imageUrl }), {}, cookies));
    expect(good.status).toBe(302);
    expect((await eventBySlug("con-imagen")).imageUrl).toBe(imageUrl);
  });

  it("refuses a file named and typed as an image whose bytes are not one, next to the field, and creates nothing", async () => {
    const { cookies, organization } = await producer();
    const result = await page(
      crear.action,
      multipartRequest("/organizacion/evento/crear", eventForm(organization.id, { name: "Imagen Falsa" }), { image: { bytes: fakeImage("jpeg"), name: "flyer.jpg", type: "image/jpeg" } }, cookies),
    );
    expect(result.status).toBe(400);
    expect(result.data.errors.image).toEqual(["No pudimos leer la imagen. Subí un JPG, PNG o WebP."]);
    expect(result.data.values.imageUrl).toBeUndefined();
    expect(await eventBySlug("imagen-falsa")).toBeUndefined();
  });

  it("refuses an image over 2 MB with the Spanish message", async () => {
    const { cookies, organization } = await producer();
    const big = new Uint8Array(2 * 1024 * 1024 + 10);
    big.set(PNG);
    const result = await page(crear.action, multipartRequest("/organizacion/evento/crear", eventForm(organization.id, { name: "Imagen Pesada" }), { image: { bytes: big, name: "x.png", type: "image/png" } }, cookies));
    expect(result.status).toBe(400);
    expect(result.data.errors.image).toEqual(["La imagen no puede pesar más de 2 MB"]);
    expect(await eventBySlug("imagen-pesada")).toBeUndefined();
  });
});

describe("publishing: conditions → publish → congrats", () => {
  it("asks to tick the box, accepts the 10 % conditions, publishes and shows the share link with its QR", async () => {
    const { cookies, organization } = await producer();
    await page(crear.action, formRequest("/organizacion/evento/crear", eventForm(organization.id, { name: "Festival Publicable" }), { cookies }));
    const event = await eventBySlug("festival-publicable");
    const url = `/organizacion/condiciones-de-servicio/${event.id}?eventId=${event.id}`;

    const conditions = await page(condiciones.loader, getRequest(url, { cookies }), { eventId: event.id });
    expect(conditions.data.feePercent).toBe(10);
    expect(conditions.data.example).toEqual({ price: expect.stringContaining("1.500,50"), fee: expect.stringContaining("150,05"), total: expect.stringContaining("1.650,55") });
    expect(conditions.data.event.acceptedAt).toBeNull();

    const unticked = await page(condiciones.action, formRequest(url, { intent: "accept" }, { cookies }), { eventId: event.id });
    expect(unticked.status).toBe(400);
    expect(unticked.data.errors.accept).toEqual(["Marcá la casilla para aceptar las condiciones"]);
    expect((await eventBySlug(event.slug)).serviceConditionsAcceptedAt).toBeNull();

    const accepted = await page(condiciones.action, formRequest(url, { intent: "accept", accept: "on" }, { cookies }), { eventId: event.id });
    expect(accepted.status).toBe(302);
    expect(accepted.location).toBe(url);
    expect(flashOf(accepted)).toEqual({ type: "success", message: SAVE_SUCCESS });
    const afterAccept = await eventBySlug(event.slug);
    expect(afterAccept.serviceConditionsAcceptedAt).not.toBeNull();
    expect(afterAccept.serviceFeeBps).toBe(1000);
    expect(afterAccept.publishedAt).toBeNull();

    const published = await page(condiciones.action, formRequest(url, { intent: "publish" }, { cookies }), { eventId: event.id });
    expect(published.status).toBe(302);
    expect(published.location).toBe(`/organizacion/congrats-evento?eventId=${event.id}`);
    expect((await eventBySlug(event.slug)).publishedAt).not.toBeNull();

    const done = await page(congrats.loader, getRequest(published.location!, { cookies }));
    expect(done.data.shareUrl).toBe(`http://localhost:3000/eventos/${event.slug}`);
    expect(done.data.qrSvg).toMatch(/^<svg[^>]*viewBox/);
    expect(done.data.qrPng).toMatch(/^data:image\/png;base64,/);
    expect(done.data.event.published).toBe(true);

    // Buyers see it now, with both tickets the public may see (the hidden one needs its code).
    const db = await getDb();
    const publicEvent = await getPublicEvent({ db, actor: { kind: "anonymous" }, now: new Date() }, event.slug);
    expect(JSON.stringify(publicEvent)).toContain("General");
  });

  it("'Aceptar y publicar' does both, and a missing ticket type is explained instead of publishing", async () => {
    const { cookies, organization, ctx } = await producer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Sin Entradas", ticketTypes: [], publish: false });
    const url = `/organizacion/condiciones-de-servicio/${event.id}`;
    const result = await page(condiciones.action, formRequest(url, { intent: "acceptAndPublish", accept: "on" }, { cookies }), { eventId: event.id });
    expect(result.status).toBe(400);
    expect(result.data.formErrors).toEqual([PUBLISH_MESSAGES.tickets]);
    expect(result.data.snackbar.type).toBe("error");
    const after = await eventBySlug(event.slug);
    expect(after.serviceConditionsAcceptedAt).not.toBeNull();
    expect(after.publishedAt).toBeNull();
  });
});

describe("/organizacion/mis-eventos", () => {
  it("lists from seven days ago by default, all with fromDate=, with status and sales; pauses, resumes and deletes", async () => {
    const { cookies, organization, ctx } = await producer();
    const upcoming = await createPublishedEvent(ctx, organization.id, { name: "Próximo Show", days: 5 });
    await createPublishedEvent(ctx, organization.id, { name: "Show Viejo", days: -30 });
    await createPublishedEvent(ctx, organization.id, { name: "Borrador Nuevo", days: 20, publish: false });

    const list = await page(misEventos.loader, getRequest("/organizacion/mis-eventos", { cookies }));
    const rows = list.data.events as { name: string; status: string; publishedAt: string | null; sold: number; stock: number }[];
    expect(rows.map((e) => e.name)).toEqual(["Próximo Show", "Borrador Nuevo"]);
    expect(rows[0]).toMatchObject({ sold: 0, stock: 100, status: "active" });
    expect(rows[1].publishedAt).toBeNull();

    const all = await page(misEventos.loader, getRequest("/organizacion/mis-eventos?fromDate=", { cookies }));
    expect(all.data.events.map((e: { name: string }) => e.name)).toEqual(["Show Viejo", "Próximo Show", "Borrador Nuevo"]);

    const paused = await page(misEventos.action, formRequest("/organizacion/mis-eventos?fromDate=", { intent: "pause", eventId: upcoming.event.id }, { cookies }));
    expect(paused.status).toBe(302);
    expect(paused.location).toBe("/organizacion/mis-eventos?fromDate=");
    expect((await eventBySlug(upcoming.event.slug)).status).toBe("paused");
    await page(misEventos.action, formRequest("/organizacion/mis-eventos", { intent: "resume", eventId: upcoming.event.id }, { cookies }));
    expect((await eventBySlug(upcoming.event.slug)).status).toBe("active");
    await page(misEventos.action, formRequest("/organizacion/mis-eventos", { intent: "delete", eventId: upcoming.event.id }, { cookies }));
    expect((await eventBySlug(upcoming.event.slug)).status).toBe("deleted");
    const afterDelete = await page(misEventos.loader, getRequest("/organizacion/mis-eventos", { cookies }));
    expect(afterDelete.data.events.map((e: { name: string }) => e.name)).toEqual(["Borrador Nuevo"]);
    const withDeleted = await page(misEventos.loader, getRequest("/organizacion/mis-eventos?ver=eliminados", { cookies }));
    expect(withDeleted.data.events.map((e: { name: string }) => e.name)).toContain("Próximo Show");
  });
});

describe("event pages", () => {
  it("edits fields, adds a date, sets the presale code, creates and edits ticket types, adds stock, custom fields and the pixel", async () => {
    const { cookies, organization, ctx } = await producer();
    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Evento Editable" });
    const db = await getDb();
    const editUrl = `/organizacion/evento/editar/${event.slug}`;

    const loaded = await page(editar.loader, getRequest(editUrl, { cookies }), { slug: event.slug });
    expect(loaded.data.event.values.name).toBe("Evento Editable");
    expect(loaded.data.dates[0].values.startsAt).toMatch(/^\d{2}\/\d{2}\/\d{4} 21:00$/);

    const updated = await page(
      editar.action,
      formRequest(editUrl, { ...loaded.data.event.values, intent: "update", name: "Evento Editado", venueName: "La Trastienda" }, { cookies }),
      { slug: event.slug },
    );
    expect(updated.status).toBe(302);
    expect(await eventBySlug(event.slug)).toMatchObject({ name: "Evento Editado", venueName: "La Trastienda" });

    const badDate = await page(editar.action, formRequest(editUrl, { intent: "addDate", startsAt: "2031-01-10T22:00", endsAt: "2031-01-10T21:00", doorsAt: "" }, { cookies }), { slug: event.slug });
    expect(badDate.status).toBe(400);
    expect(badDate.data).toMatchObject({ target: "newDate", errors: { endsAt: ["El fin tiene que ser después del inicio"] } });
    await page(editar.action, formRequest(editUrl, { intent: "addDate", startsAt: "2031-01-10T22:00", endsAt: "2031-01-11T03:00", doorsAt: "" }, { cookies }), { slug: event.slug });
    const dates = await db.select().from(eventDates).where(eq(eventDates.eventId, event.id));
    expect(dates.map((d) => d.startsAt.toISOString())).toContain("2031-01-11T01:00:00.000Z");

    await page(editar.action, formRequest(editUrl, { intent: "presale", presaleCode: "PRE2031" }, { cookies }), { slug: event.slug });
    expect((await eventBySlug(event.slug)).presaleCode).toBe("PRE2031");

    const ticketsUrl = `/organizacion/evento/editar/tickets/${event.slug}`;
    const created = await page(
      tickets.action,
      formRequest(ticketsUrl, { intent: "create", name: "VIP", price: "25.000", stock: "30", minPerOrder: "", maxPerOrder: "4", paymentMethod: "MercadoPagoAccount", presale: "on", eventDateId: "", accessCode: "", description: "" }, { cookies }),
      { slug: event.slug },
    );
    expect(created.status).toBe(302);
    expect(created.cookies["cambios-guardados"].value).toContain('"action":"create"');
    const [vip] = await db.select().from(ticketTypes).where(eq(ticketTypes.name, "VIP"));
    expect(vip).toMatchObject({ eventId: event.id, price: 2_500_000, stock: 30, maxPerOrder: 4, presale: true });

    const ticketsPage = await page(tickets.loader, getRequest(ticketsUrl, { cookies }), { slug: event.slug });
    const vipValues = ticketsPage.data.tickets.find((t: { name: string }) => t.name === "VIP").values;
    expect(vipValues).toMatchObject({ price: "25000", stock: "30", presale: "on" });
    const edited = await page(tickets.action, formRequest(ticketsUrl, { ...vipValues, id: vip.id, intent: "update", price: "27.500,50" }, { cookies }), { slug: event.slug });
    expect(edited.status).toBe(302);
    expect(edited.cookies["cambios-guardados"].value).toContain('"action":"update"');
    const [vipAfter] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, vip.id));
    expect(vipAfter.price).toBe(2_750_050);
    expect(vipAfter.presale).toBe(true);

    const stock = await page(agregarEntradas.action, formRequest(`/organizacion/agregar-entradas?eventId=${event.id}`, { ticketTypeId: vip.id, quantity: "20" }, { cookies }));
    expect(stock.status).toBe(302);
    expect(flashOf(stock)).toEqual({ type: "success", message: SAVE_SUCCESS });
    expect((await db.select().from(ticketTypes).where(eq(ticketTypes.id, vip.id)))[0].stock).toBe(50);
    const badStock = await page(agregarEntradas.action, formRequest(`/organizacion/agregar-entradas?eventId=${event.id}`, { ticketTypeId: vip.id, quantity: "0" }, { cookies }));
    expect(badStock.data.errors.quantity).toEqual(["Ingresá un número entre 1 y 1000000"]);

    const types = await page(tiposDeTicket.loader, getRequest(`/organizacion/tipos-de-ticket?eventId=${event.id}`, { cookies }));
    expect(types.data.tickets.map((t: { name: string; stock: number }) => [t.name, t.stock])).toEqual([
      ["General", 100],
      ["VIP", 50],
    ]);

    const fieldsUrl = `/organizacion/eventos/${event.slug}/campos-personalizados`;
    const badFields = await page(
      camposPersonalizados.action,
      formRequest(fieldsUrl, { intent: "save", "fields[0].label": "Talle", "fields[0].kind": "select", "fields[0].options": "S" }, { cookies }),
      { slug: event.slug },
    );
    expect(badFields.data.errors["fields.0.options"]).toEqual(["Una lista necesita al menos dos opciones"]);
    await page(
      camposPersonalizados.action,
      formRequest(fieldsUrl, { intent: "save", "fields[0].label": "Talle", "fields[0].kind": "select", "fields[0].options": "S\nM\r\nL", "fields[0].required": "on", "fields[1].label": "DNI", "fields[1].kind": "number", "fields[1].options": "" }, { cookies }),
      { slug: event.slug },
    );
    const custom = await db.select().from(eventCustomFields).where(eq(eventCustomFields.eventId, event.id)).orderBy(eventCustomFields.sortOrder);
    expect(custom.map((f) => [f.label, f.kind, f.options, f.required])).toEqual([
      ["Talle", "select", ["S", "M", "L"], true],
      ["DNI", "number", [], false],
    ]);

    const badPixel = await page(pixel.action, formRequest(`/organizacion/marketing-pixel?eventId=${event.id}`, { eventId: event.id, pixelId: "12ab" }, { cookies }));
    expect(badPixel.data.errors.pixelId).toEqual(["El ID del píxel solo puede tener números"]);
    await page(pixel.action, formRequest(`/organizacion/marketing-pixel?eventId=${event.id}`, { eventId: event.id, pixelId: "123456789012345" }, { cookies }));
    expect((await eventBySlug(event.slug)).pixelId).toBe("123456789012345");
  });
});

describe("authorization over the pages", () => {
  it("a producer of another organization gets 403 pages on every URL of someone else's event, and changes nothing", async () => {
    const owner = await producer();
    const intruder = await producer();
    const { event } = await createPublishedEvent(owner.ctx, owner.organization.id, { name: "Evento Ajeno", publish: false });
    const db = await getDb();
    const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id));
    const cookies = intruder.cookies;
    const slug = { slug: event.slug };

    const loaders: [string, (args: any) => unknown, string, Record<string, string>][] = [
      ["editar", editar.loader, `/organizacion/evento/editar/${event.slug}`, slug],
      ["tickets", tickets.loader, `/organizacion/evento/editar/tickets/${event.slug}`, slug],
      ["campos", camposPersonalizados.loader, `/organizacion/eventos/${event.slug}/campos-personalizados`, slug],
      ["condiciones", condiciones.loader, `/organizacion/condiciones-de-servicio/${event.id}`, { eventId: event.id }],
      ["congrats", congrats.loader, `/organizacion/congrats-evento?eventId=${event.id}`, {}],
      ["tipos", tiposDeTicket.loader, `/organizacion/tipos-de-ticket?eventId=${event.id}`, {}],
      ["agregar", agregarEntradas.loader, `/organizacion/agregar-entradas?eventId=${event.id}`, {}],
      ["pixel", pixel.loader, `/organizacion/marketing-pixel?eventId=${event.id}`, {}],
      ["resumen de otra organización", resumen.loader, `/organizacion/resumen?organizationId=${owner.organization.id}`, {}],
      ["shell con otra organización", shell.loader, `/organizacion/mis-eventos?organizationId=${owner.organization.id}`, {}],
    ];
    for (const [name, loader, url, params] of loaders) {
      const result = await page(loader, getRequest(url, { cookies }), params);
      expect(result.status, name).toBe(403);
      expect(result.data.message, name).toBe("No tenés permiso para hacer esto.");
    }

    const actions: [string, (args: any) => unknown, string, Record<string, string>, Record<string, string>][] = [
      ["aceptar condiciones", condiciones.action, `/organizacion/condiciones-de-servicio/${event.id}`, { intent: "acceptAndPublish", accept: "on" }, { eventId: event.id }],
      ["pausar", misEventos.action, "/organizacion/mis-eventos", { intent: "delete", eventId: event.id }, {}],
      ["editar", editar.action, `/organizacion/evento/editar/${event.slug}`, { intent: "presale", presaleCode: "ROBADO" }, slug],
      ["stock", agregarEntradas.action, "/organizacion/agregar-entradas", { ticketTypeId: ticket.id, quantity: "1000" }, {}],
      ["entrada", tickets.action, `/organizacion/evento/editar/tickets/${intruder.organization.slug}`, { intent: "delete", id: ticket.id }, { slug: event.slug }],
      ["pixel", pixel.action, "/organizacion/marketing-pixel", { eventId: event.id, pixelId: "999" }, {}],
      ["campos", camposPersonalizados.action, `/organizacion/eventos/${event.slug}/campos-personalizados`, { intent: "save", "fields[0].label": "X", "fields[0].kind": "text" }, slug],
      ["detalle", detalle.action, "/organizacion/detalle", { id: owner.organization.id, name: "Hackeada", slug: owner.organization.slug, cuit: "30-71234567-1", contactEmail: "a@b.com" }, {}],
      ["crear evento", crear.action, "/organizacion/evento/crear", eventForm(owner.organization.id, { name: "Evento Intruso" }), {}],
    ];
    for (const [name, action, url, fields, params] of actions) {
      const result = await page(action, formRequest(url, fields, { cookies }), params);
      expect(result.status, name).toBe(403);
    }

    const after = await eventBySlug(event.slug);
    expect(after).toMatchObject({ status: "active", publishedAt: null, serviceConditionsAcceptedAt: null, presaleCode: null, pixelId: null });
    const [ticketAfter] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, ticket.id));
    expect(ticketAfter).toMatchObject({ stock: ticket.stock, status: "active" });
    expect(await db.select().from(eventCustomFields).where(eq(eventCustomFields.eventId, event.id))).toHaveLength(0);
    const [org] = await db.select().from(organizations).where(eq(organizations.id, owner.organization.id));
    expect(org.name).not.toBe("Hackeada");
    expect(await eventBySlug("evento-intruso")).toBeUndefined();

    // The owner still opens all of it.
    expect((await page(editar.loader, getRequest(`/organizacion/evento/editar/${event.slug}`, { cookies: owner.cookies }), slug)).status).toBe(200);
  });

  it("an unknown event is a 404 page", async () => {
    const { cookies } = await producer();
    expect((await page(editar.loader, getRequest("/organizacion/evento/editar/no-existe", { cookies }), { slug: "no-existe" })).status).toBe(404);
    expect((await page(condiciones.loader, getRequest("/organizacion/condiciones-de-servicio/no-es-un-id", { cookies }), { eventId: "no-es-un-id" })).status).toBe(404);
  });
});

