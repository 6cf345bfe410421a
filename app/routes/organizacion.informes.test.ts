import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import { fileDate } from "#server/csv/cells";
import * as download from "./organizacion.informes_.descargar";
import * as page from "./organizacion.informes";

describe("/organizacion/informes", () => {
  it("downloads a streamed CSV or XLSX; operators see no ledger and cannot download it", async () => {
    const made = await createEventWithTickets();
    const cookies = await sessionCookiesFor(made.user.id);
    // A brand-new organization never had sheets with the old "Orden" column: no notice about its rename.
    expect((await run(page.loader, getRequest("/organizacion/informes", { cookies }))).data).toMatchObject({ canMoney: true, orderColumnRenamed: false });
    const csv = await run(download.loader, getRequest(`/organizacion/informes/descargar?tipo=ventas&formato=csv&eventId=${made.event.id}`, { cookies }));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    // Downloaded for one event, the name says which.
    expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="ventas-${made.event.slug}-${fileDate(new Date())}.csv"`);
    const xlsx = await run(download.loader, getRequest("/organizacion/informes/descargar?tipo=libro-mayor&formato=xlsx", { cookies }));
    expect(xlsx.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(xlsx.headers.get("Content-Disposition")).toBe(`attachment; filename="libro-mayor-${fileDate(new Date())}.xlsx"`);

    const operator = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: made.organization.id, userId: operator.id, role: "operator" });
    const operatorCookies = await sessionCookiesFor(operator.id);
    expect((await run(page.loader, getRequest("/organizacion/informes", { cookies: operatorCookies }))).data).toMatchObject({ canMoney: false });
    expect((await run(download.loader, getRequest("/organizacion/informes/descargar?tipo=libro-mayor", { cookies: operatorCookies }))).status).toBe(403);
  });

  it("tells an organization that existed before the rename that «Orden» is now «Compra»", async () => {
    const made = await createEventWithTickets();
    const { organizations } = await import("#server/db/schema");
    const { eq } = await import("drizzle-orm");
    await (await getDb()).update(organizations).set({ createdAt: new Date("2026-10-01T12:00:00Z") }).where(eq(organizations.id, made.organization.id));
    const result = await run(page.loader, getRequest("/organizacion/informes", { cookies: await sessionCookiesFor(made.user.id) }));
    expect(result.data.orderColumnRenamed).toBe(new Date() < new Date("2027-02-25T03:54:12Z"));
  });
});
