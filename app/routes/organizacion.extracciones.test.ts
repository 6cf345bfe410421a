
import { describe, expect, it } from "vitest";
import { sessionCookiesFor } from "#tests/support/context";
import { createEventWithReleasedSales } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as list from "./organizacion.extracciones";
import * as create from "./organizacion.extracciones_.crear";

describe("/organizacion/extracciones", () => {
  it("shows what is available and asks for a withdrawal with the form, with the error next to the amount", async () => {
    const made = await createEventWithReleasedSales(1);
    const { account } = made;
    const cookies = await sessionCookiesFor(made.user.id, { secondFactor: true });

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
