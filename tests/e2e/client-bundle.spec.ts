import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

/** Server code and secrets never reach the browser (DESIGN.md §2). */
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
