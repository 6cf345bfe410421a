import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { events, organizations } from "#server/db/schema";
import { sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as detalle from "./organizacion.detalle";
import * as editar from "./organizacion.evento.editar.$slug";

/** The back office's fields for the wallet passes: the organization's colours and the venue's coordinates, without JavaScript. */

async function setup() {
  const made = await createEventWithTickets();
  return { ...made, cookies: await sessionCookiesFor(made.user.id), db: await getDb() };
}

describe("/organizacion/detalle: the passes' colours", () => {
  it("saves a readable pair (normalized), refuses a poor contrast next to the field, and shows the saved sample", async () => {
    const { cookies, organization, db } = await setup();
    const loaded = await run(detalle.loader, getRequest("/organizacion/detalle", { cookies }));
    expect(loaded.data.organization).toMatchObject({ passBackgroundColor: "", passTextColor: "" });
    const fields = { ...loaded.data.organization };

    const poor = await run(detalle.action, formRequest("/organizacion/detalle", { ...fields, passBackgroundColor: "#14b8a6", passTextColor: "#ffffff" }, { cookies }));
    expect(poor.status).toBe(400);
    expect(poor.data.errors.passTextColor).toEqual([expect.stringMatching(/^El texto no se lee bien sobre ese fondo: el contraste es 2,\d\d:1/)]);
    const alone = await run(detalle.action, formRequest("/organizacion/detalle", { ...fields, passBackgroundColor: "#14b8a6" }, { cookies }));
    expect(alone.data.errors.passTextColor).toEqual(["Elegí los dos colores, el de fondo y el del texto, o dejá los dos vacíos."]);

    const saved = await run(detalle.action, formRequest("/organizacion/detalle", { ...fields, passBackgroundColor: "#134E4A", passTextColor: "#F0FDFA" }, { cookies }));
    expect(saved.status).toBe(302);
    const [after] = await db.select().from(organizations).where(eq(organizations.id, organization.id));
    expect(after).toMatchObject({ passBackgroundColor: "#134e4a", passTextColor: "#f0fdfa" });
    const again = await run(detalle.loader, getRequest("/organizacion/detalle", { cookies }));
    expect(again.data.organization).toMatchObject({ passBackgroundColor: "#134e4a", passTextColor: "#f0fdfa" });

    // Both emptied: back to Tribuna's.
    await run(detalle.action, formRequest("/organizacion/detalle", { ...fields, passBackgroundColor: "", passTextColor: "" }, { cookies }));
    const [cleared] = await db.select().from(organizations).where(eq(organizations.id, organization.id));
    expect(cleared).toMatchObject({ passBackgroundColor: null, passTextColor: null });
  });
});

describe("/organizacion/evento/editar/{slug}: the venue's coordinates", () => {
  it("saves them with a decimal comma, refuses one alone or out of range, and warns (without refusing) outside Argentina", async () => {
    const { cookies, event, db } = await setup();
    const url = `/organizacion/evento/editar/${event.slug}`;
    const page = await run(editar.loader, getRequest(url, { cookies }), { slug: event.slug });
    expect(page.data.event.values).toMatchObject({ venueLatitude: "", venueLongitude: "" });
    expect(page.data.event.coordinatesWarning).toBeNull();
    const post = (fields: Record<string, string>) => run(editar.action, formRequest(url, { intent: "update", ...page.data.event.values, ...fields }, { cookies }), { slug: event.slug });

    const alone = await post({ venueLatitude: "-34,5889" });
    expect(alone.status).toBe(400);
    expect(alone.data.errors.venueLongitude).toEqual(["Completá la latitud y la longitud, o dejá las dos vacías."]);
    const far = await post({ venueLatitude: "-134", venueLongitude: "-58" });
    expect(far.data.errors.venueLatitude).toEqual([expect.stringContaining("La latitud va de -90 a 90")]);

    expect((await post({ venueLatitude: "-34,5889", venueLongitude: "-58,4304" })).status).toBe(302);
    const [saved] = await db.select().from(events).where(eq(events.id, event.id));
    expect(saved).toMatchObject({ venueLatitude: -34.5889, venueLongitude: -58.4304 });
    const shown = await run(editar.loader, getRequest(url, { cookies }), { slug: event.slug });
    expect(shown.data.event.values).toMatchObject({ venueLatitude: "-34,5889", venueLongitude: "-58,4304" });
    expect(shown.data.event.coordinatesWarning).toBeNull();

    // Swapped: a valid point in the Atlantic, saved with a warning on the page.
    expect((await post({ venueLatitude: "-58,4304", venueLongitude: "-34,5889" })).status).toBe(302);
    const warned = await run(editar.loader, getRequest(url, { cookies }), { slug: event.slug });
    expect(warned.data.event.coordinatesWarning).toMatch(/fuera de la Argentina/);
  });
});
