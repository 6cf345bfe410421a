import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { env } from "#server/env";
import { setFaultReporter } from "#server/monitoring";
import { captureServerError, initServerSentry } from "#app/lib/sentry.server";
import { NonceContext } from "#app/lib/nonce";

/**
 * The GraphQL server: server.ts serves /api/graphql with this instance straight from Node (decision 129), the one the
 * resource route uses, through `graphqlListener` (the usual JSON POST without yoga's HTTP layer).
 */
export { graphqlListener, yoga } from "#server/graphql/yoga";
/** The queue page's poll, served by server.ts straight from Node too (decision 197). */
export { queuePollListener } from "#server/queue/poll";
/** The queue's light page for browsers without JavaScript, served by server.ts straight from Node (decision 241). */
export { queueLightListener, stylesheetsOf } from "#server/queue/light-page";

/** How long deferred data may stream before the render is cut (single fetch). */
export const streamTimeout = 5_000;

// Sentry only when SENTRY_DSN is set; otherwise its SDK is never imported.
// GraphQL's real faults (INTERNAL_SERVER_ERROR) are reported through server/monitoring.ts.
if (initServerSentry(env().SENTRY_DSN, env().NODE_ENV)) setFaultReporter(captureServerError);

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext?: AppLoadContext,
) {
  const nonce = loadContext?.cspNonce;
  // Bots and no-streaming clients get the whole document at once.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      if (!responseHeaders.has("X-Content-Type-Options")) responseHeaders.set("X-Content-Type-Options", "nosniff");
      if (!responseHeaders.has("Referrer-Policy")) responseHeaders.set("Referrer-Policy", "strict-origin-when-cross-origin");
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    };
    const app = (
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      onShellReady: waitForAll ? undefined : ready,
      onAllReady: waitForAll ? ready : undefined,
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors before the shell are logged by Remix (handleError below).
        if (shellRendered) console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

/** Unexpected errors in loaders, actions and rendering: logged, and sent to Sentry when enabled. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  // A client that went away (navigation cancelled) is not an error.
  if (request.signal.aborted) return;
  console.error(error);
  captureServerError(error, request);
};
