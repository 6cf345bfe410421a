import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listPlanSeats, type SeatPlan } from "#common/seating-plan";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { seatMaps, users } from "#server/db/schema";
import { setEventSeating } from "#server/seating/event-seating";
import { createProducer, createPublishedEvent } from "#tests/support/factories";
import { BASE_URL, formRequest, getRequest, run } from "#tests/support/remix";
import { CLIENT_IP_HEADER } from "#server/auth/request-auth";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import * as list from "./organizacion.mapas";
import * as editor from "./organizacion.mapas_.$mapId";
import * as download from "./organizacion.mapas_.$mapId_.exportar";

const pretixFixture = readFileSync(new URL("../../tests/fixtures/seating/pretix-teatro-del-pasaje.json", import.meta.url), "utf8");

async function organizer() {
  const p = await createProducer();
  const [user] = await (await getDb()).select().from(users).where(eq(users.id, p.user.id));
  const tokens = await startSession(await getDb(), user, new Date());
  return { ...p, cookies: { at: tokens.accessToken, rt: tokens.refreshToken } };
}

/** A file upload as a browser without JavaScript sends it (multipart/form-data). */
function uploadRequest(path: string, fields: Record<string, string>, file: { name: string; bytes: Uint8Array<ArrayBuffer> | string } | null, cookies: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("file", new Blob([file.bytes], { type: "application/json" }), file.name);
  const headers = new Headers({ cookie: Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join("; ") });
  headers.set(CLIENT_IP_HEADER, "198.51.100.10");
  return new Request(new URL(path, BASE_URL), { method: "POST", headers, body: form });
}

async function mapRow(id: string) {
  const [row] = await (await getDb()).select().from(seatMaps).where(eq(seatMaps.id, id));
  return row!;
}

const NEW_MAP = { intent: "create", name: "Teatro Colón chico", front: "top", category: "Platea", color: "#2563eb", sectionName: "Platea", rows: "3", seatsPerRow: "4", firstRowLabel: "A", numbering: "ltr", startNumber: "1", curve: "0" };

async function createMap(cookies: Record<string, string>, fields: Record<string, string> = {}) {
  const created = await run(list.action, formRequest("/organizacion/mapas", { ...NEW_MAP, ...fields }, { cookies }));
  expect(created.status).toBe(302);
  const id = created.location!.split("/organizacion/mapas/")[1]!.split("?")[0]!;
  return { id, created };
}

/** Posts one editor operation with the version the page opened. */
function edit(cookies: Record<string, string>, id: string, fields: Record<string, string>) {
  return run(editor.action, formRequest(`/organizacion/mapas/${id}`, fields, { cookies }), { mapId: id });
}

describe("/organizacion/mapas", () => {
  it("creates a map with its first block from a plain form and lists it with its seats, version and events", async () => {
    const { cookies, ctx, organization } = await organizer();
    const bad = await run(list.action, formRequest("/organizacion/mapas", { ...NEW_MAP, name: "", rows: "0", firstRowLabel: "Ñ" }, { cookies }));
    expect(bad.status).toBe(400);
    expect(bad.data.target).toBe("create");
    expect(bad.data.errors.name).toEqual(["Completá el nombre del mapa."]);
    expect(bad.data.errors.rows).toEqual(["Poné cuántas filas: un número entero de 1 a 200."]);

    const { id, created } = await createMap(cookies);
    expect(created.location).toBe(`/organizacion/mapas/${id}`);
    const row = await mapRow(id);
    expect(row.organizationId).toBe(organization.id);
    expect(row.version).toBe(1);
    const seats = listPlanSeats(row.plan);
    expect(seats).toHaveLength(12);
    expect(seats.filter((s) => s.row === "A").map((s) => s.number)).toEqual(["1", "2", "3", "4"]);
    expect(row.plan.categories).toEqual([{ name: "Platea", color: "#2563eb" }]);
    // The drawing holds every seat: the buyer's map shows plan.size.
    expect(Math.max(...seats.map((s) => s.x))).toBeLessThan(row.plan.size.width);
    expect(Math.max(...seats.map((s) => s.y))).toBeLessThan(row.plan.size.height);

    const { event } = await createPublishedEvent(ctx, organization.id, { name: "Concierto de cámara", ticketTypes: [{ name: "Platea", price: 1_000_000, stock: 12 }] });
    const { getEventForOrganizer } = await import("#server/events/events");
    const { tickets } = await getEventForOrganizer(ctx, event.id);
    await setEventSeating(ctx, { eventId: event.id, seatMapId: id, categories: [{ category: "Platea", ticketTypeId: tickets[0]!.id }] });

    const page = await run(list.loader, getRequest("/organizacion/mapas", { cookies }));
    expect(page.data.maps).toEqual([expect.objectContaining({ id, name: "Teatro Colón chico", seats: 12, sections: 1, version: 1, events: [expect.objectContaining({ name: "Concierto de cámara" })] })]);
    expect(page.data.maxUploadMb).toBe(2);
  });

  it("edits a map one operation at a time: categories, a curved odd-even block, renumbering, marks, categories of seats, removing", async () => {
    const { cookies } = await organizer();
    const { id } = await createMap(cookies);
    let version = 1;
    const ok = async (fields: Record<string, string>) => {
      const answer = await edit(cookies, id, { version: String(version), ...fields });
      expect(answer.status, JSON.stringify(answer.data)).toBe(302);
      expect(answer.location).toBe(`/organizacion/mapas/${id}`);
      version += 1;
      return (await mapRow(id)).plan;
    };

    let plan = await ok({ intent: "add-category", name: "Pullman", color: "#db2777" });
    expect(plan.categories.map((c) => c.name)).toEqual(["Platea", "Pullman"]);
    const twice = await edit(cookies, id, { version: String(version), intent: "add-category", name: "pullman", color: "" });
    expect(twice.status).toBe(400);
    expect(twice.data.formErrors).toEqual(["Ya hay una categoría «pullman»."]);
    expect(twice.data.target).toBe("add-category:");

    plan = await ok({ intent: "add-block", sectionId: "", sectionName: "Pullman", category: "Pullman", rows: "2", seatsPerRow: "6", firstRowLabel: "1", numbering: "odd-even", startNumber: "1", curve: "20", gaps: "3" });
    const pullman = plan.sections.find((s) => s.name === "Pullman")!;
    expect(pullman.rows.map((r) => r.label)).toEqual(["1", "2"]);
    // The Argentine theatre way, read from the left: evens, then odds.
    expect([...pullman.rows[0]!.seats].sort((a, b) => a.x - b.x).map((s) => s.number)).toEqual(["6", "4", "2", "1", "3", "5"]);
    // Curved: the ends come forward (smaller y) compared with the middle.
    const first = pullman.rows[0]!.seats;
    expect(Math.min(first[0]!.y, first[5]!.y)).toBeLessThan(Math.max(first[2]!.y, first[3]!.y));
    // Below what was there.
    const platea = plan.sections[0]!;
    expect(Math.min(...first.map((s) => s.y))).toBeGreaterThan(Math.max(...platea.rows.flatMap((r) => r.seats.map((s) => s.y))));

    plan = await ok({ intent: "renumber", sectionId: pullman.id, row: "0", numbering: "ltr", startNumber: "101" });
    expect([...plan.sections[1]!.rows[0]!.seats].sort((a, b) => a.x - b.x).map((s) => s.number)).toEqual(["101", "102", "103", "104", "105", "106"]);
    expect(plan.sections[1]!.rows[1]!.seats.map((s) => s.number).sort()).toEqual(["1", "2", "3", "4", "5", "6"]);

    plan = await ok({ intent: "mark", sectionId: platea.id, row: "0", seats: "1-2", accessible: "si", restrictedView: "" });
    expect(plan.sections[0]!.rows[0]!.seats.filter((s) => s.accessible).map((s) => s.number)).toEqual(["1", "2"]);
    plan = await ok({ intent: "mark", sectionId: platea.id, row: "", seats: "", accessible: "", restrictedView: "si" });
    expect(listPlanSeats(plan).filter((s) => s.restrictedView)).toHaveLength(12);

    plan = await ok({ intent: "category", sectionId: platea.id, row: "2", seats: "", category: "Pullman" });
    expect(plan.sections[0]!.rows[2]!.seats.every((s) => s.category === "Pullman")).toBe(true);

    const missing = await edit(cookies, id, { version: String(version), intent: "mark", sectionId: platea.id, row: "0", seats: "40", accessible: "si" });
    expect(missing.status).toBe(400);
    expect(missing.data.formErrors).toEqual(["La fila A de «Platea» no tiene los asientos 40."]);

    plan = await ok({ intent: "remove", sectionId: platea.id, row: "1", seats: "" });
    expect(plan.sections[0]!.rows.map((r) => r.label)).toEqual(["A", "C"]);
    plan = await ok({ intent: "details", name: "Teatro Colón chico (reformado)", front: "bottom" });
    expect(plan).toMatchObject({ name: "Teatro Colón chico (reformado)", front: "bottom" });
    expect((await mapRow(id)).name).toBe("Teatro Colón chico (reformado)");
    plan = await ok({ intent: "add-standing", name: "Campo", category: "Pullman", capacity: "300", width: "200", height: "80", x: "", y: "" });
    const campo = plan.sections.find((s) => s.name === "Campo")!;
    expect(campo).toMatchObject({ kind: "standing", rows: [], standing: { category: "Pullman", capacity: 300, width: 200, height: 80 } });
    expect(campo.standing!.y + 80).toBeLessThan(plan.size.height);
    const noCapacity = await edit(cookies, id, { version: String(version), intent: "add-standing", name: "Campo 2", category: "Pullman", capacity: "0", width: "200", height: "80" });
    expect(noCapacity.data.errors.capacity).toEqual(["Poné la capacidad: un número entero de 1 a 60000."]);
    plan = await ok({ intent: "remove", sectionId: campo.id });
    plan = await ok({ intent: "remove", sectionId: pullman.id, row: "", seats: "" });
    expect(plan.sections.map((s) => s.name)).toEqual(["Platea"]);

    const page = await run(editor.loader, getRequest(`/organizacion/mapas/${id}`, { cookies }), { mapId: id });
    expect(page.data.map).toMatchObject({ name: "Teatro Colón chico (reformado)", version, seats: 8 });
    expect(page.data.sections[0].rows[0]).toMatchObject({ label: "A", seats: 4, numbers: "1 a 4", accessible: ["1", "2"] });
  });

  it("refuses a bad block with the message next to its field, and a save over a newer version with the CONFLICT message", async () => {
    const { cookies } = await organizer();
    const { id } = await createMap(cookies);
    const bad = await edit(cookies, id, { version: "1", intent: "add-block", sectionId: "", sectionName: "Palco", category: "Platea", rows: "2", seatsPerRow: "", firstRowLabel: "A", numbering: "ltr" });
    expect(bad.status).toBe(400);
    expect(bad.data.errors.seatsPerRow).toEqual(["Poné cuántos asientos por fila: un número entero de 1 a 500."]);
    // A block on top of the seats already there: validatePlan's message, nothing saved.
    const overlap = await edit(cookies, id, { version: "1", intent: "add-block", sectionId: "", sectionName: "Encima", category: "Platea", rows: "1", seatsPerRow: "2", firstRowLabel: "A", numbering: "ltr", x: "40", y: "80" });
    expect(overlap.status).toBe(400);
    expect(overlap.data.formErrors[0]).toBe("Sector «Encima», fila A, asiento 1: está en el mismo lugar que sector «Platea», fila A, asiento 1.");
    expect((await mapRow(id)).version).toBe(1);
    // Someone else saves first…
    expect((await edit(cookies, id, { version: "1", intent: "details", name: "Teatro Colón chico", front: "left" })).status).toBe(302);
    const stale = await edit(cookies, id, { version: "1", intent: "add-category", name: "VIP", color: "#059669" });
    expect(stale.status).toBe(400);
    expect(stale.data.formErrors).toEqual(["Alguien más guardó este mapa mientras lo editabas. Volvé a abrirlo y hacé tus cambios de nuevo."]);
    expect(stale.data.snackbar.message).toBe("Alguien más guardó este mapa mientras lo editabas. Volvé a abrirlo y hacé tus cambios de nuevo.");
    const row = await mapRow(id);
    expect(row.version).toBe(2);
    expect(row.plan.categories.map((c) => c.name)).toEqual(["Platea"]);
  });

  it("imports a pretix file, refuses an invalid or too large one with what is wrong, and exports a file that imports back the same", async () => {
    const { cookies } = await organizer();
    const imported = await run(list.action, uploadRequest("/organizacion/mapas", { intent: "import" }, { name: "pasaje.json", bytes: pretixFixture }, cookies));
    expect(imported.status).toBe(302);
    const id = imported.location!.split("/organizacion/mapas/")[1]!.split("?")[0]!;
    const row = await mapRow(id);
    expect(row.name).toBe("Teatro del Pasaje");
    expect(listPlanSeats(row.plan)).toHaveLength(40);

    const broken = JSON.parse(pretixFixture);
    delete broken.size;
    const invalid = await run(list.action, uploadRequest("/organizacion/mapas", { intent: "import" }, { name: "roto.json", bytes: JSON.stringify(broken) }, cookies));
    expect(invalid.status).toBe(400);
    expect(invalid.data.target).toBe("import");
    expect(invalid.data.errors.file).toEqual(["El plano: falta el tamaño (size)."]);

    const notJson = await run(list.action, uploadRequest("/organizacion/mapas", { intent: "import" }, { name: "foto.json", bytes: "esto no es JSON" }, cookies));
    expect(notJson.data.errors.file).toEqual(["El archivo no es un JSON válido."]);

    const none = await run(list.action, uploadRequest("/organizacion/mapas", { intent: "import" }, null, cookies));
    expect(none.data.errors.file).toEqual(["Elegí el archivo JSON del plano que exportaste de pretix."]);

    const huge = new Uint8Array(2 * 1024 * 1024 + 10).fill(32);
    const tooLarge = await run(list.action, uploadRequest("/organizacion/mapas", { intent: "import" }, { name: "enorme.json", bytes: huge }, cookies));
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.data.errors.file).toEqual(["El archivo pesa más de 2 MB, el máximo para subir un plano."]);
    expect((await run(list.loader, getRequest("/organizacion/mapas", { cookies }))).data.maps).toHaveLength(1);

    const file = await download.loader({ request: getRequest(`/organizacion/mapas/${id}/exportar`, { cookies }), params: { mapId: id }, context: {} });
    expect(file.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(file.headers.get("Content-Disposition")).toBe('attachment; filename="teatro-del-pasaje-pretix.json"');
    const text = await file.text();
    const again = await run(list.action, uploadRequest("/organizacion/mapas", { intent: "import" }, { name: "de-vuelta.json", bytes: text }, cookies));
    expect(again.status).toBe(302);
    const copy = (await mapRow(again.location!.split("/organizacion/mapas/")[1]!.split("?")[0]!)).plan;
    const shape = (plan: SeatPlan) => listPlanSeats(plan).map((s) => [s.guid, s.section, s.row, s.number, s.x, s.y, s.category]).sort();
    expect(shape(copy)).toEqual(shape(row.plan));
  });

  it("answers another organization's map as not found, in the editor, its forms and the download", async () => {
    const a = await organizer();
    const b = await organizer();
    const { id } = await createMap(a.cookies);
    const page = await run(editor.loader, getRequest(`/organizacion/mapas/${id}`, { cookies: b.cookies }), { mapId: id });
    expect(page.status).toBe(404);
    expect(JSON.stringify(page.data)).not.toContain("Teatro Colón");
    const write = await edit(b.cookies, id, { version: "1", intent: "details", name: "Mío", front: "top" });
    expect(write.status).toBe(404);
    const file = await run(download.loader, getRequest(`/organizacion/mapas/${id}/exportar`, { cookies: b.cookies }), { mapId: id });
    expect(file.status).toBe(404);
    expect((await mapRow(id)).name).toBe("Teatro Colón chico");
    // B's list does not show it.
    expect((await run(list.loader, getRequest("/organizacion/mapas", { cookies: b.cookies }))).data.maps).toEqual([]);
    const nonsense = await run(editor.loader, getRequest("/organizacion/mapas/no-es-un-id", { cookies: a.cookies }), { mapId: "no-es-un-id" });
    expect(nonsense.status).toBe(404);
  });

  it("draws the pages without JavaScript: the list, the editor with its preview and forms, and the CONFLICT message after a stale save", async () => {
    const { cookies } = await organizer();
    const { id } = await createMap(cookies);
    const listed = await run(list.loader, getRequest("/organizacion/mapas", { cookies }));
    const { html: listHtml } = await renderInRouter(<list.default />, { loader: () => listed.data });
    expect(listHtml).toContain("Teatro Colón chico");
    expect(listHtml).toContain(`href="/organizacion/mapas/${id}/exportar"`);
    expect(listHtml).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    expect(listHtml).toContain("Hasta 2 MB");

    const opened = await run(editor.loader, getRequest(`/organizacion/mapas/${id}`, { cookies }), { mapId: id });
    await edit(cookies, id, { version: "1", intent: "add-category", name: "VIP", color: "#059669" });
    const stale = await edit(cookies, id, { version: "1", intent: "details", name: "Otro nombre", front: "top" });
    const refused = await run(list.action, uploadRequest("/organizacion/mapas", { intent: "import" }, { name: "roto.json", bytes: JSON.stringify({ name: "Sala", zones: [] }) }, cookies));
    const { html: refusedHtml } = await renderInRouter(<list.default />, { loader: () => listed.data, action: () => refused.data });
    expect(refused.data.errors.file.length).toBeGreaterThan(1);
    for (const message of refused.data.errors.file) expect(refusedHtml).toContain(message.replace(/"/g, "&quot;"));

    const { html } = await renderInRouter(<editor.default />, { url: `/organizacion/mapas/${id}`, loader: () => opened.data, action: () => stale.data });
    expect(html).toContain('aria-label="Vista previa de «Teatro Colón chico»: 12 asientos en 1 sector, escenario arriba."');
    for (const label of ["Agregar bloque", "Numerar", "Marcar asientos", "Cambiar categoría", "Mover el sector", "Categoría nueva"]) expect(html).toContain(label);
    expect(html).toContain('name="version" value="1"');
    expect(html).toContain("Alguien más guardó este mapa mientras lo editabas. Volvé a abrirlo y hacé tus cambios de nuevo.");
    expect(html).toContain("Abrir la versión nueva");
  });
});
