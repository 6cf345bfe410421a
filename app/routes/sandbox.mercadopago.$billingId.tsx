import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getDb } from "#server/db/client";
import { paymentsMode } from "#server/env";
import { getSandboxBilling, payInSandbox } from "#server/payment-notifications/sandbox";
import { withBillingToken } from "#server/auth/billing-access";

export const meta: MetaFunction = () => [{ title: "Pago de prueba · Tribuna" }, { name: "robots", content: "noindex" }];

function notFound(): never {
  throw new Response("No encontramos el pago.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

const money = new Intl.NumberFormat("es-AR", { style: "currency", currency: "ARS" });

/** GET: the sandbox "provider" page, only while payments are simulated (never next to the real provider). */
export async function loader({ params }: LoaderFunctionArgs) {
  if (paymentsMode() !== "sandbox") notFound();
  const row = await getSandboxBilling(await getDb(), params.billingId ?? "");
  if (!row) notFound();
  return { billingId: row.billing.id, amount: money.format(row.billing.amount / 100), orderCode: row.order.code, status: row.billing.status };
}

/**
 * POST (field `status`: approved | rejected): records the sandbox payment and
 * delivers the signed notification to the webhook handler, then sends the
 * buyer to `/checkout/status/{status}?billingId=…` (page still to be built).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (paymentsMode() !== "sandbox") notFound();
  const form = await request.formData();
  const status = String(form.get("status") ?? "");
  if (status !== "approved" && status !== "rejected") {
    return new Response("Elegí aprobar o rechazar el pago.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const billingId = params.billingId ?? "";
  const paid = await payInSandbox(await getDb(), billingId, status);
  if (!paid) notFound();
  // With the checkout's access token, so a buyer without an account can read the outcome.
  return redirect(withBillingToken(`/checkout/status/${status}?billingId=${encodeURIComponent(billingId)}`, billingId));
}

export default function SandboxPaymentPage() {
  const { amount, orderCode } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-semibold">Pago de prueba</h1>
      <p className="mt-2 text-sm opacity-80">Esto simula Mercado Pago: no se cobra dinero real.</p>
      <p className="mt-6">
        Compra <strong>{orderCode}</strong>
      </p>
      <p className="mt-1 text-3xl font-bold">{amount}</p>
      <form method="post" className="mt-8 flex gap-3">
        <button type="submit" name="status" value="approved" className="rounded bg-green-700 px-4 py-2 text-white">
          Aprobar
        </button>
        <button type="submit" name="status" value="rejected" className="rounded bg-red-700 px-4 py-2 text-white">
          Rechazar
        </button>
      </form>
    </main>
  );
}
