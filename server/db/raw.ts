/** The rows of a raw query (`db.execute`), as postgres.js (an array) or PGlite (`{ rows }`) gives them. */
export function resultRows<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];
}
