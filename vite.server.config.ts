import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * The serving process compiled ahead of time (decision 157): `server.ts` and what
 * it imports from server/ become one ES module, build/serve/server.js, run by
 * plain `node` (scripts/start.mjs). No TypeScript loader or module hooks at
 * run time. Packages stay external (node_modules); the Remix build is loaded
 * from build/server/index.js as before.
 */
export default defineConfig({
  plugins: [tsconfigPaths()],
  logLevel: "warn",
  publicDir: false,
  build: {
    ssr: "server.ts",
    outDir: "build/serve",
    target: "node20",
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    rollupOptions: { output: { format: "es", entryFileNames: "server.js" } },
  },
});
