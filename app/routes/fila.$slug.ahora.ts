import type { LoaderFunctionArgs } from "@remix-run/node";
import { queueLightAnswer } from "#server/queue/light-page";
import { paymentsMode } from "#server/env";

/**
 * `/fila/{slug}/ahora`, the queue's light page for browsers without JavaScript (decision 241). In production
 * server.ts answers it straight from Node (`queueLightListener`, with the app's stylesheet from the build's
 * manifest); this route answers in development (Vite serves the CSS its own way: the page goes unstyled, the same
 * words and states) and for other spellings.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const answer = await queueLightAnswer(request.headers.get("cookie"), params.slug ?? "", { stylesheets: [], testMode: paymentsMode() === "sandbox" });
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) for (const one of [value].flat()) headers.append(name, one);
  return new Response(answer.body || null, { status: answer.status, headers });
}
