import fs from "node:fs";
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin, type Rollup } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Dev server only: Pothos registers every GraphQL type on one builder, created
 * when server/graphql/builder.ts first runs. A change that re-runs a type file
 * (or anything it imports) without re-running the builder registers its types
 * twice ("Duplicate typename"). So any server-side change drops the whole
 * server/graphql folder, builder included, and the next request builds the
 * schema afresh.
 */
function reloadGraphqlTogether(): Plugin {
  return {
    name: "tribuna:reload-graphql-together",
    apply: "serve",
    handleHotUpdate({ server }) {
      for (const mod of server.moduleGraph.idToModuleMap.values()) {
        if (mod.file?.includes("/server/graphql/")) server.moduleGraph.invalidateModule(mod);
      }
    },
  };
}

/**
 * `remix vite:build` deletes the whole build/ folder first when `build.emptyOutDir` is left unset, and with it
 * build/serve, the compiled server (vite.server.config.ts): the first `npm start` compiled the server, then the
 * app, and left no server for the second start to reuse. So `emptyOutDir` is false (Remix leaves build/ alone)
 * and this plugin empties only the folder each of its builds writes (build/client, build/server), before Vite
 * copies public/ into it, so no stale asset is ever served (decision 157).
 */
function emptyOwnOutDir(): Plugin {
  let outDir = "";
  let buildDir = "";
  return {
    name: "tribuna:empty-own-out-dir",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      buildDir = path.resolve(config.root, "build");
    },
    buildStart() {
      // Only a folder inside build/ (never build/ itself, nor anything outside it).
      const inside = path.relative(buildDir, outDir);
      if (!inside || inside.startsWith("..") || path.isAbsolute(inside)) return;
      fs.rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * Warnings that are known and harmless, dropped by code so the build prints only what needs a look (decision
 * 157); every other warning, and every error, still shows:
 * - EMPTY_BUNDLE: a resource route (an API, a download, a redirect-only index) has no browser code, so its client
 *   chunk is empty; Remix asks for one per route anyway.
 * - INVALID_ANNOTATION from node_modules: a package's own comment mentions `@__PURE__` where Rollup cannot use it;
 *   Rollup drops the comment and the code is unchanged.
 * - In the server bundle only, "dynamic import will not move module into another chunk": a lazy import that
 *   splits the browser's code (it does there) means nothing on the server, which reads every file from disk.
 */
export function quietWarning(warning: Rollup.RollupLog, ssr: boolean): boolean {
  if (warning.code === "EMPTY_BUNDLE") return true;
  if (warning.code === "INVALID_ANNOTATION" && (warning.id ?? "").includes("/node_modules/")) return true;
  if (ssr && warning.plugin === "vite:reporter" && warning.message.includes("dynamic import will not move module into another chunk")) return true;
  return false;
}

/**
 * Every page downloads the framework and root's modules; left to itself Rollup
 * splits them (and the few components nearly every buyer page shares) into a
 * dozen chunks of under 1 kB each, one script request apiece. They go in one
 * "shell" chunk instead: the same bytes in fewer requests, and gzip compresses
 * one file better than many. Route code (and what only some pages use, such as
 * the ticket picker or the payer form) keeps its own chunks; lazily imported
 * code (Sentry's SDK, the door's QR reader) is never listed here.
 * `npm run bench:bundle` prints the result per buyer page.
 */
const SHELL_MODULES = [
  /\/node_modules\/(react|react-dom|scheduler|@remix-run\/[\w-]+|react-router|react-router-dom|turbo-stream)\//,
  /^\0commonjsHelpers|vite\/preload-helper/,
  /\/app\/lib\/(sentry-route|sentry-start|pixel|theme|nonce)\.tsx?$/,
  /\/app\/components\/AdPixel\.tsx$/,
  /\/app\/components\/layout\/(AppShell|Header|Drawer|ThemeSwitch|NavigationProgress|TestModeBanner|Analytics|navigation|errorPagesLoader)\.tsx?$/,
  // Not drawn by root, but every buyer page uses them (tried apart: a chunk of 1,2 kB on all fourteen, decision 239).
  /\/app\/components\/ui\/(Snackbar|Button|Field|useIsSubmitting)\.tsx?$/,
  /\/common\/money\.ts$/,
];

/**
 * The small pieces the event page shares with the other buyer pages (the
 * order's money and notices with the payer form and the summary; the image
 * and badges with the home): one chunk instead of six of under 1 kB.
 */
const ORDER_SUMMARY_MODULES = [
  /\/common\/pricing\.ts$/,
  /\/app\/components\/events\/Notices\.tsx$/,
  /\/app\/components\/checkout\/(MoneyLines|OrderLines)\.tsx$/,
  /\/app\/components\/ui\/Badge\.tsx$/,
];

/**
 * What draws a date control without its parsers (attributes, patterns, a checked day as dd/mm/aaaa): the home's
 * search and the payer form use both files, so they travel together (left alone, Rollup splits them in two).
 */
const DATE_INPUT_MODULES = [/\/common\/day-input\.ts$/, /\/app\/components\/ui\/dateInputAttributes\.ts$/];

function shellChunk(id: string): string | undefined {
  if (SHELL_MODULES.some((pattern) => pattern.test(id))) return "shell";
  if (ORDER_SUMMARY_MODULES.some((pattern) => pattern.test(id))) return "buyer";
  if (DATE_INPUT_MODULES.some((pattern) => pattern.test(id))) return "date-input";
  return undefined;
}

export default defineConfig(({ isSsrBuild }) => ({
  server: { port: 3000 },
  // Server-only packages: the dependency scanner must not try to bundle them for the browser.
  optimizeDeps: { exclude: ["@node-rs/argon2", "postgres", "@electric-sql/pglite", "sharp", "fontkit"] },
  plugins: [
    reloadGraphqlTogether(),
    emptyOwnOutDir(),
    tailwindcss(),
    remix({
      ignoredRouteFiles: ["**/__*", "**/*.test.*", "**/*.server.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
  ],
  // The browser's JavaScript with terser, not esbuild: 3–4 kB less gzip on every page (the shell alone 91.8 → 88.5 kB), for a
  // few seconds more of build (decision 130). The server bundle stays unminified, as Vite leaves it: readable stack traces.
  build: {
    target: "es2020",
    minify: isSsrBuild ? false : "terser",
    emptyOutDir: false,
    rollupOptions: {
      output: { manualChunks: shellChunk },
      onwarn(warning, warn) {
        if (!quietWarning(warning, Boolean(isSsrBuild))) warn(warning);
      },
    },
  },
}));
