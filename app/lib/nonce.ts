import { createContext, useContext } from "react";

/**
 * This response's Content-Security-Policy nonce (server/http/csp.ts), given
 * by entry.server.tsx to every script the server renders. In the browser it
 * is undefined: scripts added after load are trusted through 'strict-dynamic'.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}

declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** Set by server.ts for every page request (withContentSecurityPolicy). */
    cspNonce?: string;
  }
}
