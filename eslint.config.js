// Lint guards the architecture (docs/architecture.md, "Capas"): which folder may import which,
// and no import circles. Style is left to review; these rules are the ones a
// reviewer cannot keep by eye across hundreds of files.
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

const SERVER = ["\\#server/*", "**/server/*"];
const APP = ["\\#app/*", "**/app/*"];
const TESTS = ["\\#tests/*", "**/tests/*"];

// The build's Tailwind configuration is not a module of the app: the brand's values live in common/brand.ts (decision 176).
const TAILWIND_CONFIG = {
  regex: "(^|/)tailwind\\.config(\\.[cm]?[jt]s)?$",
  message: "Import the brand's colours and fonts from #common/brand (decision 176), never from the Tailwind configuration.",
};

// Each block below replaces the rule for its files (flat config does not merge a rule's options), so every one keeps TAILWIND_CONFIG.
function forbid(groups, message) {
  return ["error", { patterns: [...(groups.length > 0 ? [{ group: groups, message }] : []), TAILWIND_CONFIG] }];
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
    files: ["server/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "common/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": forbid([], ""),
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
