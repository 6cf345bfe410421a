import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { formatDate } from "#common/dates";
import { formatMoney } from "#common/money";
import { requestWithdrawal } from "#server/payouts/withdrawals";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithReleasedSales } from "#tests/support/factories";
import { getRequest, run } from "#tests/support/remix";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import * as page from "./admin.organizaciones";

describe("/admin/organizaciones", () => {
  it("the platform's admin sees every organization with its numbers, searches and pages; organizers get a 403; a bad page does not fail", async () => {
    const made = await createEventWithReleasedSales(2);
    const other = await createEventWithReleasedSales(1);
    await requestWithdrawal(made.ctx, { organizationId: made.organization.id, bankAccountId: made.account.id, amount: 500_000 });

    expect((await run(page.loader, getRequest("/admin/organizaciones", { cookies: await sessionCookiesFor(made.user.id) }))).status).toBe(403);
    expect((await run(page.loader, getRequest("/admin/organizaciones"))).location).toMatch(/^\/cuenta\//);

    const admin = await createTestUser({ roles: ["admin"] });
    const cookies = await sessionCookiesFor(admin.id, { secondFactor: true });
    const all = await run(page.loader, getRequest("/admin/organizaciones", { cookies }));
    expect(all.status).toBe(200);
    expect(all.headers.get("Cache-Control")).toBe("private, no-store");
    expect(all.data).toMatchObject({ search: "", page: 1, pages: 1, total: 2 });
    // Newest first.
    expect(all.data.organizations.map((o: { id: string }) => o.id)).toEqual([other.organization.id, made.organization.id]);
    expect(all.data.organizations[1]).toEqual({
      id: made.organization.id,
      name: made.organization.name,
      slug: made.organization.slug,
      cuit: "30-71234567-1",
      contactEmail: "hola@productora.com.ar",
      createdAt: formatDate(made.organization.createdAt),
      members: 1,
      events: 1,
      paidOrders: 1,
      grossSold: formatMoney(made.order.total),
      balance: formatMoney(made.order.total - made.order.serviceFee - 500_000),
      negativeBalance: false,
      pendingWithdrawals: 1,
    });

    const found = await run(page.loader, getRequest(`/admin/organizaciones?q=${encodeURIComponent(made.organization.slug)}`, { cookies }));
    expect(found.data.organizations.map((o: { id: string }) => o.id)).toEqual([made.organization.id]);

    for (const bad of ["abc", "-1", "0", "99999999999999999999"]) {
      const result = await run(page.loader, getRequest(`/admin/organizaciones?pagina=${bad}&q=%25%00`, { cookies }));
      expect(result.status).toBe(200);
      expect(result.data.page).toBe(1);
    }

    // The page renders with the shared nav, the public link and the support link.
    const { html } = await renderInRouter(createElement(page.default), { url: "/admin/organizaciones", loader: () => all.data });
    expect(html).toContain('href="/admin/extracciones"');
    expect(html).toContain('href="/admin/devoluciones"');
    expect(html).toContain(`href="/${made.organization.slug}"`);
    expect(html).toContain(`href="/organizacion/resumen?organizationId=${made.organization.id}"`);
    expect(html).toContain("Ver como soporte");
    expect(html).toContain("overflow-x-auto");
  });
});
