/** `/fila/{slug}/estado` (decision 197), with or without a query string. On its own: server.ts reads it without loading the queue. */
export const QUEUE_POLL_PATH = /^\/fila\/([^/?#]{1,200})\/estado(?:\?.*)?$/;

/** `/fila/{slug}/ahora`, the light page for browsers without JavaScript (decision 241), with or without a query string. */
export const QUEUE_LIGHT_PATH = /^\/fila\/([^/?#]{1,200})\/ahora(?:\?.*)?$/;

/** Where a waiting person's page refreshes itself to without JavaScript. */
export function queueLightPath(slug: string): string {
  return `/fila/${encodeURIComponent(slug)}/ahora`;
}
