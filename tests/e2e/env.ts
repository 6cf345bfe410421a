/**
 * What the end-to-end server and the test process must agree on: where the
 * server listens, its secret (fixtures mint sessions with it) and its
 * database (fixtures write their own data into it).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_AUTH_SECRET = "e2e-secret-with-at-least-thirty-two-characters!!";
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? "";
