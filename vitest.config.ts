import { createRequire } from "node:module";
import os from "node:os";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

const require = createRequire(import.meta.url);

export default defineConfig({
  plugins: [tsconfigPaths()],
  // One graphql copy: yoga and Pothos load its CommonJS build, so our files must too.
  resolve: { alias: { graphql: require.resolve("graphql") } },
  test: {
    include: ["common/**/*.test.ts", "server/**/*.test.ts", "app/**/*.test.{ts,tsx}", "tests/contract/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/setup-file.ts"],
    pool: "forks",
    // Vitest's default is one fork less than the cores: one on CI's two. Most of a test's time is waiting on
    // PostgreSQL (each file has its own database), so two forks there take the suite from ~6.4 to ~4 minutes.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
