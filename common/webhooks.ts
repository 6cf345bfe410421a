/** Outgoing webhooks: what both the back office and the server use (docs/webhooks.md). */

export const WEBHOOK_EVENT_TYPES = ["order.paid", "order.refunded", "ticket.redeemed", "bank_transfer.approved", "ticket.resold"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** How the back office names each event. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "order.paid": "Compra pagada",
  "order.refunded": "Compra devuelta",
  "ticket.redeemed": "Entrada usada en la puerta",
  "bank_transfer.approved": "Transferencia aprobada",
  "ticket.resold": "Entrada revendida en la reventa oficial",
};

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** Most endpoints one organization may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

/** Seconds we wait for an answer before counting the attempt as failed. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;

export const WEBHOOK_DELIVERY_STATUS_LABELS: Record<"pending" | "delivered" | "failed", string> = {
  pending: "Reintentando",
  delivered: "Entregado",
  failed: "Falló",
};

export const WEBHOOK_MESSAGES = {
  urlInvalid: "Escribí una URL completa, por ejemplo https://tu-sistema.com/webhooks/tribuna.",
  urlHttps: "La URL tiene que empezar con https://.",
  urlPrivate: "La URL tiene que apuntar a una dirección pública de internet, no a una red interna ni a esta máquina.",
  urlTooLong: "La URL es demasiado larga.",
  descriptionTooLong: "La descripción puede tener hasta 200 caracteres.",
  eventsRequired: "Elegí al menos un evento.",
  tooMany: `Ya tenés ${MAX_WEBHOOK_ENDPOINTS} webhooks: borrá alguno que no uses para sumar otro.`,
  notFound: "No encontramos ese webhook.",
  deliveryNotFound: "No encontramos ese envío.",
  created: "Creamos el webhook. Copiá la clave de firma ahora: no la vamos a volver a mostrar.",
  rotated: "Generamos una clave de firma nueva. Copiala ahora: la anterior ya no sirve y esta no la vamos a volver a mostrar.",
  paused: "Pausamos el webhook: no le vamos a mandar nada hasta que lo reactives.",
  resumed: "Reactivamos el webhook.",
  deleted: "Borramos el webhook.",
  replayed: "Reenviamos el evento. Fijate el resultado en el registro.",
  updated: "Guardamos los cambios del webhook.",
  retried: (count: number) =>
    count === 0 ? "No había envíos fallidos para reintentar." : count === 1 ? "Volvemos a mandar 1 envío fallido, con sus reintentos." : `Volvemos a mandar ${count} envíos fallidos, con sus reintentos.`,
} as const;

/** At most this many failed deliveries are put back in the queue by one "Reintentar los fallidos". */
export const MAX_BULK_RETRY = 500;
