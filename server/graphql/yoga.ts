import { GraphQLError } from "graphql";
import { createYoga, type Plugin } from "graphql-yoga";
import { authenticateRequest, clientIp, readTokens } from "#server/auth/request-auth";
import { clearTokenCookies, tokenCookies } from "#server/auth/cookies";
import type { Tokens } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { GENERIC_ERROR, isDomainError } from "#server/errors";
import type { GraphQLContext } from "./builder";
import { schema } from "./schema";

interface PendingHeaders {
  tokens?: Tokens;
  clear?: boolean;
  cookies: boolean;
}
const pending = new WeakMap<Request, PendingHeaders>();

/** Headers a cross-site HTML form cannot send; one of them (or a JSON body) proves same-site intent. */
const PREFLIGHT_HEADERS = ["x-access-token", "x-refresh-token", "x-graphql-csrf", "apollo-require-preflight"];

const csrfPrevention: Plugin = {
  onRequest({ request, fetchAPI, endResponse }) {
    if (request.method !== "POST") return;
    const type = request.headers.get("content-type") ?? "";
    if (type.includes("application/json") || type.includes("application/graphql")) return;
    if (PREFLIGHT_HEADERS.some((h) => request.headers.has(h))) return;
    endResponse(
      new fetchAPI.Response(
        JSON.stringify({ errors: [{ message: "Falta un encabezado de seguridad (x-graphql-csrf).", extensions: { code: "BAD_REQUEST" } }] }),
        { status: 400, headers: { "content-type": "application/json" } },
      ),
    );
  },
};

/** New or cleared tokens go back as headers, and as cookies for browser clients. */
const tokenHeaders: Plugin = {
  onResponse({ request, response }) {
    const state = pending.get(request);
    if (!state) return;
    if (state.tokens) {
      response.headers.set("x-access-token", state.tokens.accessToken);
      response.headers.set("x-refresh-token", state.tokens.refreshToken);
      if (state.cookies) for (const cookie of tokenCookies(state.tokens)) response.headers.append("set-cookie", cookie);
    } else if (state.clear) {
      response.headers.set("x-access-token", "");
      response.headers.set("x-refresh-token", "");
      for (const cookie of clearTokenCookies()) response.headers.append("set-cookie", cookie);
    }
  },
};

export const yoga = createYoga<Record<string, unknown>, GraphQLContext>({
  schema,
  graphqlEndpoint: "/api/graphql",
  graphiql: process.env.NODE_ENV !== "production",
  landingPage: false,
  plugins: [csrfPrevention, tokenHeaders],
  maskedErrors: {
    maskError(error) {
      const original = error instanceof GraphQLError ? error.originalError : error;
      if (isDomainError(original)) {
        return new GraphQLError(original.message, {
          nodes: error instanceof GraphQLError ? error.nodes : undefined,
          path: error instanceof GraphQLError ? error.path : undefined,
          extensions: {
            code: original.code,
            ...(Object.keys(original.fieldErrors).length ? { fieldErrors: original.fieldErrors } : {}),
          },
        });
      }
      if (error instanceof GraphQLError && !original) return error; // validation/syntax errors are safe to show
      console.error(original ?? error);
      return new GraphQLError(GENERIC_ERROR, {
        path: error instanceof GraphQLError ? error.path : undefined,
        extensions: { code: "INTERNAL_SERVER_ERROR" },
      });
    },
  },
  async context({ request }) {
    const db = await getDb();
    const now = new Date();
    const auth = await authenticateRequest(db, request, now);
    const state: PendingHeaders = { cookies: !auth.fromHeaders };
    pending.set(request, state);
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
