/**
 * How long a test waits for something another process (or PostgreSQL's notifications) makes happen: generous, so a
 * busy CI machine does not fail a test that only asks "eventually", and still far below the 30–60 s lifetimes of the
 * copies that would show a change without the notification under test (decision 246). How fast it happens is a benchmark's
 * business, not a test's.
 */
export const EVENTUALLY_MS = 10_000;

/** Polls `condition` until it holds; fails after `ms`. */
export async function until(condition: () => boolean | Promise<boolean>, ms = EVENTUALLY_MS, pollMs = 20): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`No pasó en ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
