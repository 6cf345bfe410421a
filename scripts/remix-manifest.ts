import fs from "node:fs";
import path from "node:path";
import type { RemixManifestLike } from "./bundle-budget";

/** The production build's client folder, where `npm run build` leaves the browser's files. */
export const CLIENT_BUILD = "build/client";

/**
 * The Remix manifest of the production build (build/client/assets/manifest-*.js), or exits with a Spanish
 * message saying what to run first (`buildCommand`).
 */
export function readRemixManifest(buildCommand: string): RemixManifestLike {
  const assets = path.join(CLIENT_BUILD, "assets");
  const manifestFile = fs.existsSync(assets) ? fs.readdirSync(assets).find((f) => f.startsWith("manifest-")) : undefined;
  if (!manifestFile) {
    console.error(`No hay build (build/client/assets/manifest-*.js): corré \`${buildCommand}\` primero.`);
    process.exit(1);
  }
  return JSON.parse(
    fs
      .readFileSync(path.join(assets, manifestFile), "utf8")
      .replace(/^window.__remixManifest=/, "")
      .replace(/;\s*$/, ""),
  ) as RemixManifestLike;
}
