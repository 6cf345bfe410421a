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

/** PostgreSQL's deadlock_detected (40P01): it rolled this transaction back to break a cycle of locks. */
export function isDeadlock(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return (e?.code ?? e?.cause?.code) === "40P01";
}

/**
 * Runs `transaction` again when PostgreSQL picked it to break a deadlock: its work was rolled back whole, and the
 * other side has gone on, so running it again meets no cycle. Only for a transaction of its own: one nested in
 * another (a savepoint) would meet the same cycle, since the outer one still holds its locks.
 */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}
