/**
 * PostgreSQL's unique_violation (23505), optionally on one named constraint.
 * postgres.js puts the fields on the error; drizzle wraps it in `cause`.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as {
    code?: string;
    constraint_name?: string;
    cause?: { code?: string; constraint_name?: string; constraint?: string };
  };
  const code = e?.code ?? e?.cause?.code;
  const name = e?.constraint_name ?? e?.cause?.constraint_name ?? e?.cause?.constraint;
  return code === "23505" && (!constraint || !name || name === constraint);
}
