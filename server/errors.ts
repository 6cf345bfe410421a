/**
 * Typed domain errors (docs/architecture.md). Routes turn them into field messages or
 * redirects; GraphQL into errors with `extensions.code`.
 */
export type ErrorCode = "UNAUTHENTICATED" | "FORBIDDEN" | "BAD_USER_INPUT" | "NOT_FOUND" | "CONFLICT" | "TOO_MANY_REQUESTS" | "QUEUE_REQUIRED";

/**
 * In production a domain error carries no stack trace. It is an answer (sold out, not found, bad input), never a
 * fault, and in an on-sale most requests end in one: recording the stack, and formatting it when GraphQL copies
 * it into its own error, cost ~0.1 ms of CPU per refused buyer, more than the refusal itself (decision 139). Tests
 * and development keep the trace, to see where an unexpected one came from.
 */
const DOMAIN_ERROR_STACKS = process.env.NODE_ENV !== "production";

/**
 * Makes an error without recording a stack trace: for errors that are answers, or copies of an error that
 * already has one. Recording it is most of what creating an error costs (decision 139).
 */
export function withoutStackTrace<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export class DomainError extends Error {
  /** Machine-readable detail for clients beyond the code (GraphQL `extensions.reason`), e.g. which step is missing. */
  reason?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    const limit = Error.stackTraceLimit;
    if (!DOMAIN_ERROR_STACKS) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = "DomainError";
  }
}

export const GENERIC_ERROR = "Upppsss... parece que hubo un error. Intentá en un rato";
export const SAVE_ERROR = "Upppsss... parece que te faltó cargar algunos datos.";
export const SAVE_SUCCESS = "¡Todo genial! Guardamos tus datos";

export class Unauthenticated extends DomainError {
  constructor(message = "Necesitás iniciar sesión para continuar.") {
    super("UNAUTHENTICATED", message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = "No tenés permiso para hacer esto.") {
    super("FORBIDDEN", message);
  }
}

export class NotFound extends DomainError {
  constructor(message = "No encontramos lo que buscabas.") {
    super("NOT_FOUND", message);
  }
}

export class Conflict extends DomainError {
  constructor(message: string, fieldErrors: Record<string, string[]> = {}) {
    super("CONFLICT", message, fieldErrors);
  }
}

export class Invalid extends DomainError {
  constructor(fieldErrors: Record<string, string[]>, message = SAVE_ERROR) {
    super("BAD_USER_INPUT", message, fieldErrors);
  }
}

export class TooManyRequests extends DomainError {
  constructor(message = "Hiciste demasiados intentos. Esperá 15 minutos y volvé a probar.") {
    super("TOO_MANY_REQUESTS", message);
  }
}

/**
 * The event's virtual queue is on and the person holds no admission for it (docs/queue.md): pages send them to
 * `/fila/{slug}`, GraphQL answers QUEUE_REQUIRED with the event's slug in `extensions.reason`.
 */
export class QueueRequired extends DomainError {
  constructor(readonly eventSlug: string) {
    super("QUEUE_REQUIRED", "Para comprar en este evento tenés que hacer la fila virtual: sumate y esperá tu turno.");
    this.reason = eventSlug;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError || (error instanceof Error && error.name === "DomainError" && "code" in error);
}
