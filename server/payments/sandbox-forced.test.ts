import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { billings } from "#server/db/schema";
import { createPendingOrder } from "#tests/support/factories";
import { getPaymentProvider } from "./providers";
import { payInSandbox } from "#server/payment-notifications/sandbox";

// A staging server with Mercado Pago credentials that asks for simulated payments: read before anything reads the environment.
process.env.MERCADOPAGO_ACCESS_TOKEN = "APP_USR-0000000000000000-000000-00000000000000000000000000000000-000000000";
process.env.PAYMENTS_SANDBOX = "true";

describe("PAYMENTS_SANDBOX=true next to Mercado Pago credentials", () => {
  it("every part agrees on the sandbox: the billing, the provider and the notification's signature", async () => {
    const { billing } = await createPendingOrder();
    expect(billing.provider).toBe("sandbox");
    expect(getPaymentProvider().name).toBe("sandbox");
    const paid = await payInSandbox(await getDb(), billing.id, "approved");
    expect(paid?.result).toMatchObject({ status: 200, outcome: "approved" });
    const [row] = await (await getDb()).select().from(billings).where(eq(billings.id, billing.id));
    expect(row.status).toBe("approved");
  });
});
