/** `/fila/{slug}/estado` (decision 197), with or without a query string. On its own: server.ts reads it without loading the queue. */
export const QUEUE_POLL_PATH = /^\/fila\/([^/?#]{1,200})\/estado(?:\?.*)?$/;
