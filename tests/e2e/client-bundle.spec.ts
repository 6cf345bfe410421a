import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

/** Server code and secrets never reach the browser (docs/architecture.md, "Capas"). */
test("the client build carries no database driver, password hashing or server secrets", () => {
  const dir = path.resolve("build/client");
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (full.endsWith(".js")) files.push(full);
    }
  };
  walk(dir);
  expect(files.length).toBeGreaterThan(0);
  const offenders = files.filter((file) => {
    const text = fs.readFileSync(file, "utf8");
    return /@node-rs\/argon2|postgres\.js|pglite|drizzle-orm|AUTH_SECRET|password_hash|x-tribuna-client-ip/i.test(text);
  });
  expect(offenders).toEqual([]);
});

/**
 * Signing up and in stays within the buyer pages' JavaScript budget (scripts/bundle-budget.ts, which
 * `bench:bundle` checks on every build): their forms validate natively in the browser and carry neither zod
 * nor Conform, ~35 kB gzip together (decision 181).
 */
test("the sign-up and sign-in pages load neither zod nor Conform", () => {
  const assets = path.resolve("build/client/assets");
  const manifestFile = fs.readdirSync(assets).find((f) => f.startsWith("manifest-"))!;
  const manifest = JSON.parse(
    fs
      .readFileSync(path.join(assets, manifestFile), "utf8")
      .replace(/^window.__remixManifest=/, "")
      .replace(/;\s*$/, ""),
  ) as { routes: Record<string, { module: string; imports?: string[] }> };
  for (const id of ["routes/cuenta.registro", "routes/cuenta.iniciar-sesion._index", "routes/cuenta.iniciar-sesion.email"]) {
    const route = manifest.routes[id];
    expect(route, id).toBeDefined();
    const carried = [route.module, ...(route.imports ?? [])].filter((file) => /ZodError|\b_zod\b|data-conform|__conform/.test(fs.readFileSync(path.resolve("build/client", `.${file}`), "utf8")));
    expect(carried, id).toEqual([]);
  }
});
