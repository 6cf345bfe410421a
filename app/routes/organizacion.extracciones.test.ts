import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { eventDates } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { payInSandbox } from "#server/payments/sandbox";
import { RELEASE_HOURS } from "#common/payouts";
import { ctxAs, sessionCookiesFor } from "#tests/support/context";
import { createEventWithTickets, createTransferAccount } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as list from "./organizacion.extracciones";
import * as create from "./organizacion.extracciones_.crear";

describe("/organizacion/extracciones", () => {
  it("shows what is available and asks for a withdrawal with the form, with the error next to the amount", async () => {
    const made = await createEventWithTickets([{ name: "General", price: 1_000_000, stock: 10 }]);
    const db = await getDb();
    const { billing } = await createOrder(await ctxAs(), {
      eventSlug: made.event.slug,
      items: [{ ticketId: made.tickets.General.id, qty: 1 }],
      payer: { firstName: "Ana", lastName: "Gómez", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" },
      paymentMethod: "MERCADO_PAGO",
    });
    await payInSandbox(db, billing.id, "approved");
    const endsAt = new Date(Date.now() - (RELEASE_HOURS + 1) * 3600_000);
    await db.update(eventDates).set({ startsAt: new Date(endsAt.getTime() - 3600_000), endsAt }).where(eq(eventDates.eventId, made.event.id));
    const account = await createTransferAccount(made.ctx, made.organization.id);
    const cookies = await sessionCookiesFor(made.user.id);

    const page = await run(list.loader, getRequest("/organizacion/extracciones", { cookies }));
    expect(page.data).toMatchObject({ canWithdraw: true, withdrawals: [] });
    expect(page.data.available).toMatch(/10\.000,00/);

    const tooMuch = await run(create.action, formRequest("/organizacion/extracciones/crear", { bankAccountId: account.id, amount: "20000" }, { cookies }));
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.data.errors.amount[0]).toMatch(/^No tenés tanto disponible: podés retirar hasta \$\s10\.000,00\.$/);
    const ok = await run(create.action, formRequest("/organizacion/extracciones/crear", { bankAccountId: account.id, amount: "4.000" }, { cookies }));
    expect(ok.status).toBe(302);
    const after = await run(list.loader, getRequest("/organizacion/extracciones", { cookies }));
    expect(after.data.available).toMatch(/6\.000,00/);
    expect(after.data.withdrawals).toEqual([expect.objectContaining({ status: "requested", account: expect.stringContaining(account.cbu.slice(-4)) })]);
  });
});
