/**
 * The schema as integrators see it, printed to `schema.graphql` at the repo
 * root so every API change shows up in review (docs/api.md).
 *
 *   npm run graphql:schema          writes schema.graphql
 *   npm run graphql:schema -- --check   exits 1 when schema.graphql is out of date
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { schema } from "./schema";

/**
 * graphql's printer from the same copy Pothos built the schema with. Under
 * Vite (vitest) a plain `import "graphql"` may load its ESM build while Pothos
 * loads the CommonJS one, and graphql refuses to mix the two ("from another
 * module or realm"). Node's own resolution is what Pothos and yoga get.
 */
const { lexicographicSortSchema, printSchema } = createRequire(import.meta.url)("graphql") as typeof import("graphql");

export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../schema.graphql");

export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

function main() {
  const printed = printedSchema();
  const current = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, "utf8") : null;
  if (process.argv.includes("--check")) {
    if (current !== printed) {
      console.error("schema.graphql está desactualizado: corré `npm run graphql:schema`.");
      process.exit(1);
    }
    console.log("schema.graphql está al día.");
    return;
  }
  if (current === printed) {
    console.log("schema.graphql ya estaba al día.");
    return;
  }
  fs.writeFileSync(SCHEMA_FILE, printed);
  console.log(`Esquema escrito en ${path.relative(process.cwd(), SCHEMA_FILE)}.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
