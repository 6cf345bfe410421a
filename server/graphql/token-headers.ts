import { clearTokenCookies, tokenCookies } from "#server/auth/cookies";
import type { Tokens } from "#server/auth/sessions";

/** What a GraphQL request's answer must say of the visitor's tokens, as its resolvers left it. */
export interface PendingTokens {
  tokens?: Tokens;
  clear?: boolean;
  /** Browser clients (tokens from cookies) get cookies too; header clients only headers. */
  cookies: boolean;
}
const pending = new WeakMap<Request, PendingTokens>();

export function trackTokens(request: Request, state: PendingTokens): void {
  pending.set(request, state);
}

/** New or cleared tokens as headers, and as cookies for browser clients; null when there is nothing to say. */
export function pendingTokenHeaders(request: Request): { headers: Record<string, string>; cookies: string[] } | null {
  const state = pending.get(request);
  if (!state) return null;
  if (state.tokens) {
    return {
      headers: { "x-access-token": state.tokens.accessToken, "x-refresh-token": state.tokens.refreshToken },
      cookies: state.cookies ? tokenCookies(state.tokens) : [],
    };
  }
  if (state.clear) return { headers: { "x-access-token": "", "x-refresh-token": "" }, cookies: clearTokenCookies() };
  return null;
}
