import type { ASTNode, DocumentNode, GraphQLError } from "graphql";
import { createGraphQLError, createLogger, createYoga, type Plugin, type YogaLogger, type YogaServerInstance } from "graphql-yoga";
import { authenticateRequest, clientIp, readTokens } from "#server/auth/request-auth";
import { getDb } from "#server/db/client";
import { GENERIC_ERROR, isDomainError, withoutStackTrace } from "#server/errors";
import { reportFault } from "#server/monitoring";
import type { GraphQLContext } from "./builder";
import { schema } from "./schema";
import { clientError, validationError } from "./client-errors";
import { armor } from "./limits";
import { controlCharacterError, isUnstorableText, refuseControlCharacters } from "./control-characters";
import { limitRequestBody } from "./body-size";
import { compiledExecution } from "./compiled-execution";
import { MAX_BODY_BYTES } from "#server/http/body-limit";
import { CORS_OPTIONS } from "./cors";
import { pendingTokenHeaders, trackTokens, type PendingTokens } from "./token-headers";
import { jsonPostListener } from "./json-post";
import { TextKeyedCache } from "./document-cache";

export const CSRF_MESSAGE = "Falta un encabezado de seguridad (x-graphql-csrf).";

/** Headers a cross-site HTML form cannot send; one of them (or a JSON body) proves same-site intent. */
const PREFLIGHT_HEADERS = ["x-access-token", "x-refresh-token", "x-graphql-csrf", "apollo-require-preflight"];

/** Body types a page on another site cannot send without a CORS preflight. */
const PREFLIGHTED_TYPES = ["application/json", "application/graphql+json", "application/graphql"];

/**
 * The media type without parameters, as the browser's CORS check reads it:
 * "application/x-www-form-urlencoded; x=application/json" is a simple form
 * post (no preflight), whatever its parameters say.
 */
function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(",")[0].split(";")[0].trim().toLowerCase();
}

/**
 * CSRF: a POST whose body a form or a no-cors fetch could send (urlencoded,
 * multipart, text/plain) must carry one of PREFLIGHT_HEADERS. Browsers send
 * cookies with such posts, so without this another site could act for the
 * signed-in person.
 */
const csrfPrevention: Plugin = {
  onRequest({ request, fetchAPI, endResponse }) {
    if (request.method !== "POST") return;
    if (PREFLIGHTED_TYPES.includes(mediaType(request.headers.get("content-type")))) return;
    if (PREFLIGHT_HEADERS.some((h) => request.headers.has(h))) return;
    endResponse(
      new fetchAPI.Response(
        JSON.stringify({ errors: [{ message: CSRF_MESSAGE, extensions: { code: "BAD_REQUEST" } }] }),
        { status: 400, headers: { "content-type": "application/json" } },
      ),
    );
  },
};

/**
 * A request whose `operationName` is not a text (a number, an object…) is not a well-formed GraphQL request: 400
 * whatever the Accept header, as the GraphQL over HTTP spec recommends (decision 179). Yoga checks the other
 * parameters but lets this one through to graphql-js, which would answer it as if no name had been given.
 */
const operationNameIsText: Plugin = {
  onParams({ params }) {
    if (params.operationName != null && typeof params.operationName !== "string") {
      throw createGraphQLError("«operationName» tiene que ser un texto.", { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
    }
  },
};

/**
 * graphql-js's validation errors (unknown field, missing argument, wrong
 * literal…) are returned, not thrown, so the error mask never sees them:
 * here they become Spanish, with the field they are about, still
 * GRAPHQL_VALIDATION_FAILED and 400 (decision 101: every client mistake in Spanish).
 */
const spanishValidation: Plugin = {
  onValidate() {
    return ({ valid, result, setResult }) => {
      // Errors our own rules already wrote (control characters: BAD_USER_INPUT, in Spanish) stay as they are.
      const ours = (error: (typeof result)[number]) => typeof error.extensions?.code === "string" && error.extensions.code !== "GRAPHQL_VALIDATION_FAILED";
      if (!valid) setResult(result.map((error) => (ours(error) ? error : (clientError(error) ?? validationError(error)))));
    };
  },
};

/**
 * Validation results cached by parsed document alone. Yoga's own cache keys them by the list of rules too, and
 * builds that key (the names of some forty rules joined) on every request: about 1 % of the on-sale's CPU
 * (decision 142). Our rules are the same for every request, and yoga's parse cache hands the same DocumentNode for
 * the same query text, so the document is key enough. Last of our plugins, where yoga's cache would sit: it keeps
 * the result as the plugins before it left it, and hands it back to them the same way.
 *
 * A document already found valid skips envelop's validation step altogether (`skipKnownValid`): even with the
 * answer cached, that step copied the list of rules and handed each of the ten `onValidate` hooks a fresh object
 * with four closures, ~4.7 kB per request, the largest allocation of a `createOrder` (decision 245). Every one of
 * those hooks only adds a rule or rewrites errors, and a valid document has none.
 */
export function cachedValidation(): Plugin {
  const results = new WeakMap<DocumentNode, ReadonlyArray<GraphQLError | Error>>();
  type GetEnveloped = YogaServerInstance<Record<string, unknown>, GraphQLContext>["getEnveloped"];
  /** Yoga's `getEnveloped`, whose `validate` answers a document known valid with no errors, without envelop's step. */
  function skipKnownValid(getEnveloped: GetEnveloped): GetEnveloped {
    const wrapped = ((context) => {
      const enveloped = getEnveloped(context);
      const validate = enveloped.validate;
      enveloped.validate = (schema, document, ...rest) => (rest.length === 0 && results.get(document)?.length === 0 ? NO_ERRORS : validate(schema, document, ...rest));
      return enveloped;
    }) as GetEnveloped;
    return Object.assign(wrapped, { _plugins: getEnveloped._plugins });
  }
  return {
    // The server itself (`createYoga` hands out an adapter in front of it), after it built its `getEnveloped`;
    // read-only in yoga's types, a plain field its request handlers read on every request.
    onYogaInit({ yoga }) {
      const server = yoga as unknown as { getEnveloped: GetEnveloped };
      server.getEnveloped = skipKnownValid(server.getEnveloped);
    },
    onValidate({ params: { documentAST }, setResult }) {
      const cached = results.get(documentAST);
      if (cached) return setResult(cached);
      return ({ result }) => void results.set(documentAST, result);
    },
  };
}
const NO_ERRORS: ReadonlyArray<GraphQLError> = Object.freeze([]);

/** New or cleared tokens go back as headers, and as cookies for browser clients (./token-headers.ts). */
const tokenHeaders: Plugin = {
  onResponse({ request, response }) {
    const pending = pendingTokenHeaders(request);
    if (!pending) return;
    for (const [name, value] of Object.entries(pending.headers)) response.headers.set(name, value);
    for (const cookie of pending.cookies) response.headers.append("set-cookie", cookie);
  },
};

/**
 * GraphQL errors recognised by shape, not by class: under Vite (tests, dev)
 * our `import "graphql"` can load the ESM build while yoga and Pothos load the
 * CommonJS one, and `instanceof GraphQLError` is then false for yoga's errors.
 */
interface GraphQLErrorLike extends Error {
  originalError?: unknown;
  extensions?: Record<string, unknown>;
  path?: readonly (string | number)[];
  nodes?: ReadonlyArray<ASTNode>;
}
function asGraphQLError(value: unknown): GraphQLErrorLike | null {
  return value instanceof Error && value.name === "GraphQLError" ? (value as GraphQLErrorLike) : null;
}

/** A domain error (wrong password, not signed in…) or a client's own mistake (bad variable, query over the limits) is an answer, not a fault. */
function isExpected(value: unknown): boolean {
  const graphqlError = asGraphQLError(value);
  return (
    isDomainError(graphqlError?.originalError ?? value) ||
    (graphqlError !== null && (graphqlError.extensions?.code === "BAD_USER_INPUT" || clientError(graphqlError) !== null))
  );
}

/**
 * Yoga logs every error it masks. Domain errors are answers the client gets
 * (UNAUTHENTICATED for each anonymous `current`…), so they are logged at
 * debug level; only unexpected ones reach the error log, once.
 */
const baseLogger = createLogger(process.env.NODE_ENV === "test" ? "warn" : "info");
const logger: YogaLogger = {
  ...baseLogger,
  error: (...args: unknown[]) => (args.every(isExpected) ? baseLogger.debug(...args) : baseLogger.error(...args)),
};

/**
 * Domain errors become GraphQL errors with `extensions.code` (and
 * `fieldErrors` for bad input), keeping their path so partial data lines up.
 * GraphQL's own errors (syntax, validation, bad request) pass as they are.
 * Anything else is a fault: yoga logs it, it is reported to monitoring
 * (Sentry, server/monitoring.ts) and the client gets the generic Spanish
 * message with INTERNAL_SERVER_ERROR.
 */
export function maskError(error: unknown): Error {
  const graphqlError = asGraphQLError(error);
  const original = graphqlError ? graphqlError.originalError : error;
  if (isDomainError(original)) {
    // An answer, not a fault: no stack trace to record (the domain error's own says where it came from).
    return withoutStackTrace(() =>
      createGraphQLError(original.message, {
        nodes: graphqlError?.nodes,
        path: graphqlError?.path,
        extensions: {
          code: original.code,
          ...(Object.keys(original.fieldErrors).length ? { fieldErrors: original.fieldErrors } : {}),
          ...(original.reason ? { reason: original.reason } : {}),
        },
      }),
    );
  }
  // A variable that does not fit its type, or a query over the limits, is the client's mistake, not our fault.
  const clientMistake = graphqlError ? clientError(graphqlError) : null;
  if (clientMistake) return clientMistake;
  if (graphqlError && !original) return graphqlError;
  if (isUnstorableText(original)) return controlCharacterError(graphqlError?.path?.join(".") ?? "input", graphqlError?.nodes ? [...graphqlError.nodes] : undefined);
  reportFault(original ?? error);
  return createGraphQLError(GENERIC_ERROR, {
    nodes: graphqlError?.nodes,
    path: graphqlError?.path,
    extensions: { code: "INTERNAL_SERVER_ERROR" },
  });
}

/** The GraphQL IDE at GET /api/graphql, outside production. */
const GRAPHIQL = process.env.NODE_ENV !== "production";

/** The server's yoga, with or without GraphiQL (tests build the production one too: ./json-post.test.ts). */
export function createGraphQLServer(options: { graphiql: boolean }) {
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: "/api/graphql",
    graphiql: options.graphiql,
    landingPage: false,
    plugins: [csrfPrevention, tokenHeaders, operationNameIsText, refuseControlCharacters, ...armor.plugins, spanishValidation, limitRequestBody(MAX_BODY_BYTES), compiledExecution(schema), cachedValidation()],
    // Ours above, cheaper for a body that declares its length (./body-size.ts); both refuse what passes MAX_BODY_BYTES.
    maxRequestBodySize: false,
    // Parsed documents and parse errors in caches bounded in bytes (./document-cache.ts); validation results in ours (cachedValidation).
    parserAndValidationCache: { documentCache: new TextKeyedCache(), errorCache: new TextKeyedCache(), validationCache: false },
    logging: logger,
    cors: CORS_OPTIONS,
    maskedErrors: { maskError },
    async context({ request }) {
      const db = await getDb();
      const now = new Date();
      const auth = await authenticateRequest(db, request, now);
      const state: PendingTokens = { cookies: !auth.fromHeaders };
      trackTokens(request, state);
      if (auth.refreshed) state.tokens = auth.refreshed;
      else if (auth.stale) state.clear = true;
      return {
        ctx: { db, actor: auth.actor, now, ip: clientIp(request) },
        request,
        refreshToken: auth.refreshed?.refreshToken ?? readTokens(request).refreshToken,
        issueTokens(tokens) {
          state.tokens = tokens;
          state.clear = false;
        },
        clearTokens() {
          state.tokens = undefined;
          state.clear = true;
        },
      };
    },
  });
}

export const yoga = createGraphQLServer({ graphiql: GRAPHIQL });

/**
 * yoga's Node listener for `/api/graphql`, with the usual JSON POST answered on yoga's GraphQL steps without its
 * HTTP layer (./json-post.ts); `fallback` (yoga's own listener, as the server wraps it) answers everything else.
 */
export function graphqlListener(fallback: Parameters<typeof jsonPostListener>[1]) {
  return jsonPostListener(yoga, fallback, { path: "/api/graphql", maxBodyBytes: MAX_BODY_BYTES, graphiql: GRAPHIQL });
}
