/**
 * Typed domain errors (DESIGN.md §1). Routes turn them into field messages or
 * redirects; GraphQL into errors with `extensions.code`.
 */
export type ErrorCode = "UNAUTHENTICATED" | "FORBIDDEN" | "BAD_USER_INPUT" | "NOT_FOUND" | "CONFLICT" | "TOO_MANY_REQUESTS";

export class DomainError extends Error {
  /** Machine-readable detail for clients beyond the code (GraphQL `extensions.reason`), e.g. which step is missing. */
  reason?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const GENERIC_ERROR = "Upppsss... parece que hubo un error. Intentá en un rato";
export const SAVE_ERROR = "Upppsss... parece que te faltaron cargar algunos datos.";
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

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError || (error instanceof Error && error.name === "DomainError" && "code" in error);
}
