import { describe, expect, it } from "vitest";
import { createPendingOrder } from "#tests/support/factories";
import { formRequest, getRequest, run } from "#tests/support/remix";
import * as sandboxRoute from "./sandbox.mercadopago.$billingId";

// This file's server takes real payments: read before anything reads the environment.
process.env.MERCADOPAGO_ACCESS_TOKEN = "APP_USR-0000000000000000-000000-00000000000000000000000000000000-000000000";

describe("/sandbox/mercadopago/{billingId} next to the real provider", () => {
  it("answers 404 to the page and to 'Aprobar': nobody can approve their own purchase", async () => {
    const { billing } = await createPendingOrder();
    const page = await run(sandboxRoute.loader, getRequest(`/sandbox/mercadopago/${billing.id}`), { billingId: billing.id });
    expect(page.status).toBe(404);
    const approve = await run(sandboxRoute.action, formRequest(`/sandbox/mercadopago/${billing.id}`, { status: "approved" }), { billingId: billing.id });
    expect(approve.status).toBe(404);
  });
});
