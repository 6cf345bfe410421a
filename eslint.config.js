// Lint guards the architecture (docs/architecture.md, "Capas"): which folder may import which,
// and no import circles. Style is left to review; these rules are the ones a
// reviewer cannot keep by eye across hundreds of files.
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

const SERVER = ["\\#server/*", "**/server/*"];
const APP = ["\\#app/*", "**/app/*"];
const TESTS = ["\\#tests/*", "**/tests/*"];

function forbid(groups, message) {
  return ["error", { patterns: [{ group: groups, message }] }];
}

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".data/**", "public/**", "playwright-report/**", "test-results/**", ".ci-results/**"] },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver": undefined,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      // Type-only imports are erased, but a circle of types still means two modules that cannot be read apart.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: ["common/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": forbid([...SERVER, ...APP, ...TESTS], "common/ holds pure, browser-safe rules: it imports neither app/ nor server/."),
    },
  },
  {
    files: ["server/**/*.{ts,tsx}"],
    ignores: ["server/**/*.test.ts"],
    rules: {
      "no-restricted-imports": forbid([...APP, ...TESTS], "server/ is the domain: it never imports app/ (browser-safe rules live in common/)."),
    },
  },
  {
    files: ["server/**/*.test.ts"],
    rules: {
      "no-restricted-imports": forbid(APP, "server/ tests test the domain; a route's test lives beside the route in app/routes."),
    },
  },
  {
    // What the browser runs: components, browser helpers, root and client entry.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/routes/**", "app/root.tsx", "app/**/*.server.ts", "app/**/*.server.tsx", "app/entry.server.tsx", "app/**/*.test.ts", "app/**/*.test.tsx"],
    rules: {
      "no-restricted-imports": forbid(SERVER, "Browser code never imports server/: reach the domain through a loader, an action or a *.server.ts file."),
    },
  },
);
