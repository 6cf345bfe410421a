import type { ActionFunctionArgs } from "@remix-run/node";
import { getDb } from "#server/db/client";
import { handleMercadoPagoNotification } from "#server/payments/webhook";

/**
 * POST /api/webhooks/mercadopago: Mercado Pago's payment notifications.
 * 200 for a valid one (after reading the payment and applying it, which takes
 * milliseconds), 401 for a forged one (logged, nothing else changes). An
 * error reading the provider is a 500, so Mercado Pago retries later.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  let body: unknown = null;
  try {
    body = JSON.parse(await request.text());
  } catch {
    body = null;
  }
  const result = await handleMercadoPagoNotification(await getDb(), {
    headers: request.headers,
    body,
    query: new URL(request.url).searchParams,
  });
  return new Response(result.status === 200 ? "OK" : "Firma inválida", {
    status: result.status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
