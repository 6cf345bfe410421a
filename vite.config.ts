import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  server: { port: 3000 },
  // Server-only packages: the dependency scanner must not try to bundle them for the browser.
  optimizeDeps: { exclude: ["@node-rs/argon2", "postgres", "@electric-sql/pglite"] },
  plugins: [
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
  build: { target: "es2020" },
});
