import type { KnipConfig } from "knip";

/**
 * Unused files, exports and dependencies (`npm run knip`). Knip's own plugins read the Remix, Vite, Vitest,
 * Playwright, ESLint and Drizzle configs, and package.json's scripts, for their entry points (app/root.tsx,
 * app/entry.*, app/routes/**, every test, server.ts, server/demo/seed-cli.ts, server/graphql/print-schema.ts);
 * below are the ones nothing names: Remix's route config, every script (some run from others, not from
 * package.json), and the helpers tests start as separate processes. docs/architecture.md says what each folder is for.
 */
const config: KnipConfig = {
  entry: [
    "app/routes.ts",
    "scripts/*.{ts,mjs}",
    "tests/support/outgoing-test-receiver.mjs",
    "tests/support/place-orders-process.ts",
    "tests/support/queue-process.ts",
    "tests/support/revoke-session.ts",
  ],
  project: ["app/**/*.{ts,tsx}", "server/**/*.ts", "common/**/*.ts", "tests/**/*.{ts,mjs}", "scripts/**/*.{ts,mjs}", "*.{ts,js,mjs}", "app/**/*.css"],
  // An export its own file uses is a name given to a piece of the module, not dead code.
  ignoreExportsUsedInFile: true,
  // The ARCA tests make a self-signed certificate and verify CMS signatures with the system's openssl (docs/invoicing.md).
  // The wallet tests make a throwaway CA and verify pass signatures with the system's openssl (tests/support/wallet.ts).
  ignoreBinaries: ["openssl"],
};

export default config;
