import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withdrawals } from "#server/db/schema";
import { requestWithdrawal } from "#server/payouts/withdrawals";
import { createTestUser, sessionCookiesFor } from "#tests/support/context";
import { createEventWithReleasedSales } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as queue from "./admin.extracciones";

describe("/admin/extracciones", () => {
  it("the platform's admin approves, pays with a reference or rejects with a reason; organizers get a 403", async () => {
    const made = await createEventWithReleasedSales(2);
    const { db, account } = made;
    const first = await requestWithdrawal(made.ctx, { organizationId: made.organization.id, bankAccountId: account.id, amount: 500_000 });
    const second = await requestWithdrawal(made.ctx, { organizationId: made.organization.id, bankAccountId: account.id, amount: 500_000 });

    expect((await run(queue.loader, getRequest("/admin/extracciones", { cookies: await sessionCookiesFor(made.user.id) }))).status).toBe(403);
    const admin = await createTestUser({ roles: ["admin"] });
    const cookies = await sessionCookiesFor(admin.id, { secondFactor: true });
    const page = await run(queue.loader, getRequest("/admin/extracciones", { cookies }));
    expect(page.data.withdrawals.filter((w: { id: string }) => [first.id, second.id].includes(w.id))).toHaveLength(2);

    expect((await run(queue.action, formRequest("/admin/extracciones", { intent: "approve", id: first.id }, { cookies }))).status).toBe(302);
    const noRef = await run(queue.action, formRequest("/admin/extracciones", { intent: "paid", id: first.id, transferReference: "" }, { cookies }));
    expect(noRef.data).toEqual({ id: first.id, error: "Escribí la referencia de la transferencia." });
    expect((await run(queue.action, formRequest("/admin/extracciones", { intent: "paid", id: first.id, transferReference: "TRF-1" }, { cookies }))).status).toBe(302);
    expect((await run(queue.action, formRequest("/admin/extracciones", { intent: "reject", id: second.id, reason: "CBU de otra persona" }, { cookies }))).status).toBe(302);
    const again = await run(queue.action, formRequest("/admin/extracciones", { intent: "reject", id: second.id, reason: "CBU de otra persona" }, { cookies }));
    expect(again.status).toBe(409);
    const rows = await db.select({ id: withdrawals.id, status: withdrawals.status }).from(withdrawals).where(eq(withdrawals.organizationId, made.organization.id));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [first.id]: "paid", [second.id]: "rejected" });
  });
});
