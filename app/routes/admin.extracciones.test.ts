import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { RELEASE_HOURS } from "#common/payouts";
import { getDb } from "#server/db/client";
import { eventDates, withdrawals } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payments/sandbox";
import { requestWithdrawal } from "#server/payouts/withdrawals";
import { createTestUser, ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets, createTransferAccount } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as queue from "./admin.extracciones";

describe("/admin/extracciones", () => {
  it("the platform's admin approves, pays with a reference or rejects with a reason; organizers get a 403", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 10 }]);
    const db = await getDb();
    const { billing } = await createOrder(await ctxAs(), {
      eventSlug: made.event.slug,
      items: [{ ticketId: made.tickets.General.id, qty: 2 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(db, billing.id, "approved");
    const endsAt = new Date(Date.now() - (RELEASE_HOURS + 1) * 3600_000);
    await db.update(eventDates).set({ startsAt: new Date(endsAt.getTime() - 3600_000), endsAt }).where(eq(eventDates.eventId, made.event.id));
    const account = await createTransferAccount(made.ctx, made.organization.id);
    const first = await requestWithdrawal(made.ctx, { organizationId: made.organization.id, bankAccountId: account.id, amount: 500_000 });
    const second = await requestWithdrawal(made.ctx, { organizationId: made.organization.id, bankAccountId: account.id, amount: 500_000 });

    expect((await run(queue.loader, getRequest("/admin/extracciones", { cookies: await sessionCookiesFor(made.user.id) }))).status).toBe(403);
    const admin = await createTestUser({ roles: ["admin"] });
    const cookies = await sessionCookiesFor(admin.id);
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
