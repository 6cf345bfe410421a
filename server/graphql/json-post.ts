import type { IncomingMessage, ServerResponse } from "node:http";
import type { ExecutionResult } from "graphql";
import { processRegularResult } from "graphql-yoga";
import { corsHeaders } from "./cors";
import { pendingTokenHeaders } from "./token-headers";
import { tagGraphQLOperation } from "#server/monitoring/metrics";
import { withoutStackTrace } from "#server/errors";

type NodeListener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * The request-level hooks (run around yoga's GraphQL work, on the HTTP request and response) this path stands in
 * for, counted over yoga's plugins: yoga's own (health check, CORS, GraphiQL when it is on, the five body parsers,
 * its body limit, the unhandled route, the params check, the result processors) and ours (CSRF, body size, token
 * headers, control characters, operationName as text; the `onParams` hooks run here too, inside
 * `getResultForParams`). A plugin added with another such hook changes a count, and the short path then
 * stays off (every request takes yoga's whole way, and the server says so when it starts) until someone checks
 * here what it must also do. GraphiQL answers GET only, so a POST owes it nothing.
 */
export function knownRequestHooks(options: { graphiql: boolean }) {
  return { onRequest: options.graphiql ? 5 : 4, onResponse: 2, onRequestParse: 8, onParams: 3, onResultProcess: 1, onExecutionResult: 0 };
}
type HookName = keyof ReturnType<typeof knownRequestHooks>;
const HOOKS: HookName[] = ["onRequest", "onResponse", "onRequestParse", "onParams", "onResultProcess", "onExecutionResult"];

export function requestHookCounts(yoga: object): Record<HookName, number> & { instrumentation: boolean } {
  const server = yoga as unknown as { plugins: (Record<string, unknown> | null | false)[]; instrumentation?: unknown };
  const plugins = server.plugins;
  const counts = Object.fromEntries(HOOKS.map((hook) => [hook, 0])) as Record<HookName, number>;
  let instrumentation = Boolean(server.instrumentation);
  for (const plugin of plugins) {
    if (!plugin) continue;
    for (const hook of HOOKS) if (typeof plugin[hook] === "function") counts[hook]++;
    if (plugin.instrumentation) instrumentation = true;
  }
  return { ...counts, instrumentation };
}

const ALLOWED_PARAMS = new Set(["query", "variables", "operationName", "extensions"]);
const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> => typeof value === "object" && value !== null && Symbol.asyncIterator in value;
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The GraphQL parameters when the body is exactly what yoga would pass on as they are; null sends it yoga's way. */
function plainParams(body: unknown): { query: string; variables?: Record<string, unknown> | null; operationName?: string | null; extensions?: Record<string, unknown> | null } | null {
  if (!isPlainObject(body)) return null;
  for (const key in body) if (!ALLOWED_PARAMS.has(key)) return null;
  const { query, variables, operationName, extensions } = body;
  if (typeof query !== "string" || !query) return null;
  if (variables != null && !isPlainObject(variables)) return null;
  if (operationName != null && typeof operationName !== "string") return null;
  if (extensions != null && !isPlainObject(extensions)) return null;
  return body as ReturnType<typeof plainParams>;
}

/**
 * The usual integrator's call, `POST /api/graphql` with a JSON body of declared length and `Accept:
 * application/json`, run on yoga's own GraphQL steps (its params hooks, parse and validation caches, context,
 * execution, error masking, and its JSON result processor) without yoga's HTTP layer: no Fetch API copy of the
 * Node request, no body stream, no Response object, no promise helpers around each hook (that layer
 * was about a fifth of a `createOrder`'s CPU, decision 142). The answer is yoga's, byte for byte, with CORS
 * and token headers as its hooks would add them; `json-post.test.ts` sends the same requests both ways.
 *
 * Anything else (another method, media type or Accept, a body yoga would refuse or read otherwise, an
 * unknown request-level plugin) goes to `fallback`, yoga's Node listener, with the body already read handed
 * over as it came.
 */
export function jsonPostListener(
  yoga: object,
  fallback: NodeListener,
  options: { path: string; maxBodyBytes: number; graphiql: boolean },
): NodeListener {
  const counts = requestHookCounts(yoga);
  const expected = knownRequestHooks(options);
  if (counts.instrumentation || HOOKS.some((hook) => counts[hook] !== expected[hook])) {
    console.warn(`GraphQL: el camino corto para POST JSON queda apagado; los hooks de pedido no son los conocidos (${JSON.stringify(counts)}). Ver server/graphql/json-post.ts.`);
    return fallback;
  }
  const server = yoga as unknown as {
    getResultForParams(payload: { params: unknown; request: Request }, context: Record<string, unknown>): ExecutionResult | Promise<ExecutionResult>;
    fetchAPI: { Request: typeof Request };
    waitUntil: (promise: Promise<unknown>) => void;
  };
  const getResultForParams = server.getResultForParams;
  const FetchRequest = server.fetchAPI.Request;
  const waitUntil = server.waitUntil;
  // The Response class yoga's result processor is handed: it keeps what yoga decided (body, status, headers) as it is.
  const capture = { Response: class { constructor(readonly body: string, readonly init: { status: number; headers: Record<string, string> }) {} } };

  const eligible = (req: IncomingMessage) => {
    const headers = req.headers;
    const length = headers["content-length"];
    return (
      req.method === "POST" &&
      req.url === options.path &&
      length !== undefined &&
      /^[1-9]\d*$/.test(length) &&
      Number(length) <= options.maxBodyBytes &&
      headers["transfer-encoding"] === undefined &&
      headers["content-encoding"] === undefined &&
      headers.accept === "application/json" &&
      (headers["content-type"] === "application/json" || headers["content-type"] === "application/json; charset=utf-8")
    );
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    let params: ReturnType<typeof plainParams>;
    try {
      params = plainParams(JSON.parse(body.toString("utf8")));
    } catch {
      params = null;
    }
    if (!params) return fallback(Object.assign(req, { body }), res);
    tagGraphQLOperation(req, params.operationName, params.query);
    const request = new FetchRequest(`http://localhost${options.path}`, { method: "POST", headers: req.headers as Record<string, string> });
    let result: ExecutionResult;
    try {
      result = await getResultForParams({ params, request }, { req, res, waitUntil });
    } catch {
      // Only a params hook throws here (execution errors come back as results), so nothing ran yet: yoga answers it.
      return fallback(Object.assign(req, { body }), res);
    }
    if (res.destroyed || res.writableEnded) return;
    if (isAsyncIterable(result)) {
      // A subscription's stream, which a JSON answer cannot carry: yoga's processors answer 406 naming the one
      // type that can (server-sent events). The stream is closed, not left running.
      void result[Symbol.asyncIterator]().return?.();
      res.writeHead(406, { accept: "text/event-stream" });
      return void res.end();
    }
    // Yoga's stringifier copies each error to drop its internal extensions, and a copy without an original error
    // records a stack trace nobody reads (the JSON has none): ~40 µs per refused order in an on-sale's rush.
    const processed = withoutStackTrace(() => processRegularResult(result, capture as never, "application/json")) as unknown as InstanceType<typeof capture.Response>;
    // Named as yoga's processor names them ("Content-Type"), the rest in lower case as its Headers write them.
    const headers: Record<string, string | string[]> = { ...processed.init.headers };
    headers["content-length"] = String(Buffer.byteLength(processed.body));
    Object.assign(headers, corsHeaders(request));
    const tokens = pendingTokenHeaders(request);
    if (tokens) {
      Object.assign(headers, tokens.headers);
      if (tokens.cookies.length) headers["set-cookie"] = tokens.cookies;
    }
    res.setHeaders(new Map(Object.entries(headers)));
    res.writeHead(processed.init.status);
    res.end(processed.body);
  };

  return (req, res) => {
    if (!eligible(req)) return fallback(req, res);
    const chunks: Buffer[] = [];
    // A client gone mid-body: nobody is left to answer.
    req.on("error", () => res.destroy());
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      answer(req, res, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).catch((error) => {
        console.error(error);
        if (!res.headersSent) {
          res.statusCode = 500;
          res.end();
        } else res.destroy();
      });
    });
  };
}
