/**
 * The printed schema and the integrators' guide stay true to the code:
 * `schema.graphql` is what the server serves, and `docs/api.md` documents
 * every operation with examples that the schema accepts.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { SCHEMA_FILE, printedSchema } from "#server/graphql/print-schema";
import { schema } from "#server/graphql/schema";

// The copy of graphql the schema was built with (see print-schema.ts).
const { parse, validate } = createRequire(import.meta.url)("graphql") as typeof import("graphql");

const DOCS_FILE = path.resolve(path.dirname(SCHEMA_FILE), "docs/api.md");
const docs = () => fs.readFileSync(DOCS_FILE, "utf8");

/** The spec's account calls (section 7), with the arguments it names. */
const SPEC_QUERIES: Record<string, string[]> = {
  current: [],
  getMetricReferralSalesByUser: ["input"],
  findUsers: ["text"],
  findUsersByOrganization: ["input"],
  userByEmail: ["email"],
  fetchUserByNickname: ["nickname"],
};
const SPEC_MUTATIONS: Record<string, string[]> = {
  login: ["email", "password"],
  impersonatedLogin: ["email"],
  register: ["firstName", "lastName", "email", "password"],
  logout: [],
  updateUser: ["firstName", "lastName", "email", "nickname"],
  recoverPasswordCode: ["email"],
  recoverPassword: ["email", "code", "password"],
  createSignInLink: ["email", "returnTo"],
  finishSignInFromLink: ["token"],
  registerFromLink: ["token", "firstName", "lastName"],
};

const rootFields = (kind: "query" | "mutation") => {
  const type = kind === "query" ? schema.getQueryType() : schema.getMutationType();
  return Object.values(type?.getFields() ?? {});
};

describe("schema.graphql", () => {
  it("is up to date with the code (run `npm run graphql:schema` after changing the API)", () => {
    expect(fs.existsSync(SCHEMA_FILE), "schema.graphql is missing: run `npm run graphql:schema`").toBe(true);
    const committed = fs.readFileSync(SCHEMA_FILE, "utf8");
    expect(committed === printedSchema(), "schema.graphql is out of date: run `npm run graphql:schema`").toBe(true);
  });
});

describe("the spec's account operations", () => {
  it.each([
    ...Object.entries(SPEC_QUERIES).map(([name, args]) => ["query", name, args] as const),
    ...Object.entries(SPEC_MUTATIONS).map(([name, args]) => ["mutation", name, args] as const),
  ])("%s %s takes the spec's arguments %j", (kind, name, args) => {
    const field = rootFields(kind).find((f) => f.name === name);
    expect(field, `${kind} ${name} is missing`).toBeDefined();
    expect(field!.args.map((a) => a.name)).toEqual(expect.arrayContaining(args));
    // Anything beyond the spec's arguments must be optional, so the spec's calls keep working.
    for (const arg of field!.args.filter((a) => !args.includes(a.name))) {
      expect(String(arg.type).endsWith("!") && arg.defaultValue === undefined, `${name}(${arg.name}) must be optional`).toBe(false);
    }
  });

  it("are nullable at the root, so one failing field does not blank out the others", () => {
    const spec = new Set([...Object.keys(SPEC_QUERIES), ...Object.keys(SPEC_MUTATIONS)]);
    for (const field of [...rootFields("query"), ...rootFields("mutation")].filter((f) => spec.has(f.name))) {
      expect(String(field.type).endsWith("!"), `${field.name}: ${String(field.type)}`).toBe(false);
    }
  });
});

describe("docs/api.md", () => {
  it("documents every operation of the schema under its own heading", () => {
    const text = docs();
    const missing = [...rootFields("query"), ...rootFields("mutation")]
      .map((f) => f.name)
      .filter((name) => !text.includes(`### \`${name}\``));
    expect(missing, "operations without a section in docs/api.md").toEqual([]);
  });

  it("has examples the schema accepts", () => {
    const blocks = [...docs().matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(16);
    for (const block of blocks) {
      const errors = validate(schema, parse(block)).map((e) => e.message);
      expect(errors, block).toEqual([]);
    }
  });

  it("shows an example of every account operation", () => {
    const examples = [...docs().matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
    for (const name of [...Object.keys(SPEC_QUERIES), ...Object.keys(SPEC_MUTATIONS)]) {
      expect(examples, `no GraphQL example calls ${name}`).toMatch(new RegExp(`\\b${name}\\b\\s*[({]`));
    }
  });

  it("names the auth headers, the cookies, the CSRF header and every error code", () => {
    const text = docs();
    for (const word of ["x-access-token", "x-refresh-token", "`at`", "`rt`", "x-graphql-csrf", "fieldErrors"]) expect(text).toContain(word);
    for (const code of ["UNAUTHENTICATED", "FORBIDDEN", "BAD_USER_INPUT", "NOT_FOUND", "CONFLICT", "TOO_MANY_REQUESTS", "INTERNAL_SERVER_ERROR"]) {
      expect(text).toContain(`\`${code}\``);
    }
  });
});
