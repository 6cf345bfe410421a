import { redirect } from "@remix-run/node";

/** `/fila/{slug}`: the event's virtual queue page. */
export function queuePath(slug: string): string {
  return `/fila/${encodeURIComponent(slug)}`;
}

/** The domain's refusal for a person without an admission while the event's queue is on (docs/queue.md). */
export function isQueueRequired(error: unknown): boolean {
  return error instanceof Error && error.name === "DomainError" && (error as Error & { code?: string }).code === "QUEUE_REQUIRED";
}

/**
 * For `.catch(...)` around a domain call that buys or prices: a person who
 * must queue goes to the queue page (303, so a posted form lands on a GET);
 * any other error goes on as it was.
 */
export function toQueueOnRefusal(slug: string, headers?: HeadersInit) {
  return (error: unknown): never => {
    if (isQueueRequired(error)) throw redirect(queuePath(slug), { status: 303, headers });
    throw error;
  };
}
