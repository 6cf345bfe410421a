import { describe, expect, it } from "vitest";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import { fileDate } from "#server/csv/cells";
import * as download from "./organizacion.informes_.descargar";
import * as page from "./organizacion.informes";

/** The accountant's export of Tribuna's invoices on /organizacion/informes (decision 234); its rows: server/invoicing/export.test.ts. */
describe("/organizacion/informes: facturas y notas de crédito", () => {
  it("only the platform team sees the card and downloads it; an organizer sees no card and gets a 403", async () => {
    const made = await createEventWithTickets();
    const organizer = await sessionCookiesFor(made.user.id);
    const asOrganizer = await run(page.loader, getRequest("/organizacion/informes", { cookies: organizer }));
    expect(asOrganizer.data).toMatchObject({ canMoney: true, invoiceMonths: null });
    const refused = await run(download.loader, getRequest("/organizacion/informes/descargar?tipo=facturas&formato=csv", { cookies: organizer }));
    expect(refused.status).toBe(403);

    const admin = await sessionCookiesFor((await createTestUser({ roles: ["admin"] })).id);
    const asAdmin = await run(page.loader, getRequest(`/organizacion/informes?organizationId=${made.organization.id}`, { cookies: admin }));
    const months = asAdmin.data.invoiceMonths as { value: string; label: string }[];
    // This month first (Buenos Aires), 24 of them, with their Spanish names.
    expect(months).toHaveLength(24);
    expect(months[0].value).toBe(fileDate(new Date()).slice(0, 7));
    expect(months[0].label).toMatch(/^(enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}$/);

    // What the card's form sends: the month and the format.
    const csv = await run(download.loader, getRequest(`/organizacion/informes/descargar?organizationId=${made.organization.id}&tipo=facturas&mes=${months[1].value}&formato=csv`, { cookies: admin }));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="facturas-periodo-${months[1].value}-${fileDate(new Date())}.csv"`);
    const xlsx = await run(download.loader, getRequest(`/organizacion/informes/descargar?organizationId=${made.organization.id}&tipo=facturas&mes=&formato=xlsx`, { cookies: admin }));
    expect(xlsx.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(xlsx.headers.get("Content-Disposition")).toBe(`attachment; filename="facturas-${fileDate(new Date())}.xlsx"`);
    // A month typed by hand that is not one: a 400 with the reason, no crash.
    const bad = await run(download.loader, getRequest(`/organizacion/informes/descargar?organizationId=${made.organization.id}&tipo=facturas&mes=noviembre`, { cookies: admin }));
    expect(bad.status).toBe(400);
  });
});
