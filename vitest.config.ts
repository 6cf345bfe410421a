import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

const require = createRequire(import.meta.url);

export default defineConfig({
  plugins: [tsconfigPaths()],
  // One graphql copy: yoga and Pothos load its CommonJS build, so our files must too.
  resolve: { alias: { graphql: require.resolve("graphql") } },
  test: {
    include: ["common/**/*.test.ts", "server/**/*.test.ts", "app/**/*.test.{ts,tsx}", "tests/contract/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/setup-file.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
