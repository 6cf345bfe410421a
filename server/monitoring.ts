/**
 * Where the server's real faults go besides the log: Sentry when SENTRY_DSN
 * is set. The SDK lives on the app side (app/lib/sentry.server.ts), which
 * server/ may not import; app/entry.server.tsx hands its capture function to
 * `setFaultReporter` when the build loads, and code under server/ (the
 * GraphQL error mask) calls `reportFault`. A client's mistake or a domain
 * answer (FORBIDDEN, BAD_USER_INPUT…) is never a fault and never reported.
 */
export type FaultReporter = (error: unknown, request?: Request) => void;

let reporter: FaultReporter | null = null;

/** Sets (or, with null, removes) where faults are reported; returns the previous one. */
export function setFaultReporter(next: FaultReporter | null): FaultReporter | null {
  const previous = reporter;
  reporter = next;
  return previous;
}

/** Reports a fault; a reporter that fails never turns the answer into another fault. */
export function reportFault(error: unknown, request?: Request): void {
  try {
    reporter?.(error, request);
  } catch {
    // Monitoring is best effort: the client already gets the generic message.
  }
}
