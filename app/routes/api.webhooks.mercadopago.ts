import type { ActionFunctionArgs } from "@remix-run/node";
import { clientIp } from "#server/auth/request-auth";
import { getDb } from "#server/db/client";
import { readTextAtMost } from "#server/http/body-limit";
import { handleMercadoPagoNotification, MAX_NOTIFICATION_BYTES } from "#server/payment-notifications/webhook";

const ANSWERS = { 200: "OK", 401: "Firma inválida o vencida", 413: "Notificación demasiado grande", 429: "Demasiadas notificaciones rechazadas" } as const;

function answer(status: keyof typeof ANSWERS) {
  return new Response(ANSWERS[status], { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * POST /api/webhooks/mercadopago: Mercado Pago's payment notifications.
 * 200 for a valid one (after reading the payment and applying it, which takes
 * milliseconds); 401 for a forged one or one signed more than 5 minutes
 * away from our clock (logged without its body); 429 when an address keeps
 * sending those; 413 for a body over 64 KB, before it is read whole. An
 * error reading the provider is a 500, so Mercado Pago retries later.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  const raw = await readTextAtMost(request, MAX_NOTIFICATION_BYTES);
  if (raw === null) return answer(413);
  let body: unknown = null;
  try {
    body = JSON.parse(raw);
  } catch {
    body = null;
  }
  const result = await handleMercadoPagoNotification(await getDb(), {
    headers: request.headers,
    body,
    rawBody: raw,
    query: new URL(request.url).searchParams,
    remoteAddress: clientIp(request) ?? null,
  });
  return answer(result.status);
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
