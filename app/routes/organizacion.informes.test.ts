import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import { fileDate } from "#server/reports/cells";
import * as download from "./organizacion.informes_.descargar";
import * as page from "./organizacion.informes";

describe("/organizacion/informes", () => {
  it("downloads a streamed CSV or XLSX; operators see no ledger and cannot download it", async () => {
    const made = await createEventWithTickets();
    const cookies = await sessionCookiesFor(made.user.id);
    expect((await run(page.loader, getRequest("/organizacion/informes", { cookies }))).data).toMatchObject({ canMoney: true });
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
});
