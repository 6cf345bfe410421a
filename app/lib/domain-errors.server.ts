import { data, redirect } from "@remix-run/node";
import { callbackCookie } from "#server/auth/cookies";
import { isDomainError, type DomainError, type ErrorCode } from "#server/errors";
import { FORCED_LOGIN_PATH } from "#app/lib/session.server";

/**
 * The one mapping from domain errors (server/errors.ts) to what the web
 * door answers. GraphQL has its own (server/graphql/yoga.ts maskError: the
 * code goes in `extensions.code`); pages and forms use only this module.
 */

/** A form's answer: 400 when the person can fix it, 403 when they may not do it at all, 429 when they must wait. */
export const FORM_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 400,
  CONFLICT: 400,
  TOO_MANY_REQUESTS: 429,
  QUEUE_REQUIRED: 403,
};

/**
 * Forms where the conflict is the news itself (the stock ran out at the
 * checkout, a withdrawal someone else already decided): 409, as GraphQL's
 * CONFLICT. Everything else as FORM_STATUS.
 */
export const CONFLICT_FORM_STATUS: Record<ErrorCode, number> = { ...FORM_STATUS, CONFLICT: 409 };

/** Forms that look something up by what the person typed (an order code and its email): not there is 404. */
export const LOOKUP_FORM_STATUS: Record<ErrorCode, number> = { ...FORM_STATUS, NOT_FOUND: 404 };

/** What a person reads for an error: its field messages, or its message when it has none. */
export function errorMessages(error: DomainError): string[] {
  const messages = Object.values(error.fieldErrors ?? {}).flat();
  return messages.length ? messages : [error.message];
}

/** A domain error the person can fix or must wait for (shown next to the form), as opposed to one that ends the page. */
export function isFormError(error: unknown): error is DomainError {
  return isDomainError(error) && (error.code === "BAD_USER_INPUT" || error.code === "CONFLICT" || error.code === "TOO_MANY_REQUESTS");
}

export interface PageErrorOptions {
  headers?: HeadersInit;
  /**
   * Private things (a purchase, a receipt): "may not read it" answers as
   * "not there" (404 with `notFoundText`), so nobody learns that it exists.
   * Without `signIn`, an anonymous visitor gets the same 404.
   */
  conceal?: boolean;
  /** The plain-text body of a concealed 404. */
  notFoundText?: string;
  /** This request's visitor, when anonymous, goes to sign in (the forced login) and comes back here afterwards. */
  signIn?: Request;
}

/**
 * What a loader (or an action's authorization step) throws for an error: the
 * page the person should see. Not signed in → the forced login; may not →
 * 403 (or 404 when concealed); not found → 404; anything else the person
 * did → 400. A non-domain error is returned as it is (rethrow it: a fault).
 */
export function pageErrorResponse(error: unknown, options: PageErrorOptions = {}): unknown {
  if (!isDomainError(error)) return error;
  const notFound = () =>
    options.conceal
      ? new Response(options.notFoundText ?? error.message, {
          status: 404,
          headers: mergeHeaders(options.headers, { "Cache-Control": "private, no-store", "Content-Type": "text/plain; charset=utf-8" }),
        })
      : data({ message: error.message }, { status: 404, statusText: "Not Found", headers: options.headers });
  switch (error.code) {
    case "UNAUTHENTICATED":
      if (options.conceal && !options.signIn) return notFound();
      return redirect(FORCED_LOGIN_PATH, { headers: mergeHeaders(options.headers, options.signIn ? { "Set-Cookie": comeBackCookie(options.signIn) } : undefined) });
    case "FORBIDDEN":
      return options.conceal ? notFound() : data({ message: error.message }, { status: 403, statusText: "Forbidden", headers: options.headers });
    case "NOT_FOUND":
      return notFound();
    default:
      return data({ message: error.message }, { status: FORM_STATUS[error.code], statusText: "Bad Request", headers: options.headers });
  }
}

function comeBackCookie(request: Request): string {
  const url = new URL(request.url);
  return callbackCookie(url.pathname + url.search);
}

function mergeHeaders(...sources: (HeadersInit | undefined)[]): Headers {
  const out = new Headers();
  for (const source of sources) if (source) new Headers(source).forEach((value, name) => out.append(name, value));
  return out;
}
