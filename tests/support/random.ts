/**
 * Test data comes from a fixed seed (TEST_SEED, default below), so a failing
 * run can be replayed with the same names and amounts. Values that must be
 * unique in a database that outlives one run (the end-to-end database, reused
 * locally) also carry `RUN_TAG`, which is the only thing that changes between
 * runs.
 */
const DEFAULT_SEED = 20261124;

/** mulberry32: tiny, fast and good enough for test data (not for secrets). Also the crash test's (scripts/crash-test.ts). */
export function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const TEST_SEED = Number(process.env.TEST_SEED ?? DEFAULT_SEED);
export const random = seeded(TEST_SEED);

/** `length` lowercase letters and digits from the seeded generator. */
export function randomTag(length = 6): string {
  let out = "";
  for (let i = 0; i < length; i += 1) out += "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(random() * 36)];
  return out;
}

/**
 * A base-36 timestamp of this process's start with its pid mixed in: unique per run and per process, constant within
 * it. The pid matters: two Playwright workers once started in the same millisecond, drew the same seeded tags, and the
 * second one's first user hit `users_email_key`.
 */
export const RUN_TAG = process.env.TEST_RUN_TAG ?? (Date.now() * 1000 + (process.pid % 1000)).toString(36);
