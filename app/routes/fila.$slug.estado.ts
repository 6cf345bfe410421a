import type { LoaderFunctionArgs } from "@remix-run/node";
import { queuePollAnswer } from "#server/queue/poll";

/**
 * `/fila/{slug}/estado`, the queue page's poll (decision 197). In production server.ts answers it straight from
 * Node (`queuePollListener`, without Remix); this route answers in development and for other spellings.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const answer = await queuePollAnswer(request.headers.get("cookie"), params.slug ?? "");
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } });
}
