import fc from "fast-check";
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { schema } from "#server/graphql/schema";
import { createEventWithTickets } from "#tests/support/factories";
import { gql, type TokenPair } from "#tests/support/graphql";

/**
 * Property-based fuzzing of every query and mutation: random, hostile values
 * for every argument, shaped by the argument's type (so they reach the
 * domain), sent by an anonymous client and by a producer. Whatever comes in,
 * the answer is never a 5xx, never INTERNAL_SERVER_ERROR, never a stack trace.
 * Fixed seed and a bounded number of runs per operation.
 *
 * Strings include control characters (NUL…): PostgreSQL refuses NUL in
 * text, and the guard of tests/contract/control-characters.test.ts must
 * answer them as the client's mistake.
 */
const SEED = 20261124;
const RUNS_PER_OPERATION = 4;
// Uploads need a multipart request (tests/contract/uploads.test.ts covers them).
const SKIPPED = new Set(["uploadImage", "uploadBankTransferReceipt"]);

const withControl = fc.tuple(fc.string({ maxLength: 10 }), fc.integer({ min: 0, max: 31 }), fc.string({ maxLength: 10 })).map(([a, c, b]) => `${a}${String.fromCharCode(c)}${b}`);
const hostileString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  withControl,
  fc.constantFrom("", " ", "'; drop table users; --", "<script>alert(1)</script>", "../../etc/passwd", "ñandú ÁÉÍÓÚ", "😀".repeat(30), "9".repeat(400), "a".repeat(5000)),
  fc.uuid(),
  fc.date({ min: new Date("0001-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.emailAddress(),
);
const hostileInt = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2147483647, -2147483648, 1));
const hostileFloat = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0.5, 1e300));

function valueFor(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return valueFor(type.ofType, depth);
  const nullable = (arb: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) });
  if (isListType(type)) return nullable(fc.array(valueFor(type.ofType, depth + 1), { maxLength: depth > 2 ? 1 : 4 }));
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.value as unknown));
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    if (depth > 3) return fc.constant({});
    return nullable(fc.record(Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type, depth + 1)])), { requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name) }));
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case "Int":
        return nullable(hostileInt);
      case "Float":
        return nullable(hostileFloat);
      case "Boolean":
        return nullable(fc.boolean());
      case "ID":
        return nullable(fc.oneof(fc.uuid(), hostileString));
      default:
        return nullable(hostileString);
    }
  }
  return fc.constant(null);
}

function argumentDefinitions(args: readonly GraphQLArgument[]) {
  return args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
}

/** The shallowest selection the field's type accepts: `__typename` works on any object, union or interface. */
function selectionFor(field: GraphQLField<unknown, unknown>) {
  return isScalarType(getNamedType(field.type)) || isEnumType(getNamedType(field.type)) ? "" : "{ __typename }";
}

function operationsOf(kind: "query" | "mutation") {
  const root = kind === "query" ? schema.getQueryType() : schema.getMutationType();
  return Object.values(root?.getFields() ?? {}).filter((f) => !SKIPPED.has(f.name) && !f.name.startsWith("__"));
}

async function fuzz(kind: "query" | "mutation", tokens: TokenPair | undefined) {
  for (const field of operationsOf(kind)) {
    const args = field.args;
    const document = args.length
      ? `${kind} Fuzz(${argumentDefinitions(args)}) { ${field.name}(${args.map((a) => `${a.name}: $${a.name}`).join(", ")}) ${selectionFor(field)} }`
      : `${kind} Fuzz { ${field.name} ${selectionFor(field)} }`;
    const variables = fc.record(Object.fromEntries(args.map((a) => [a.name, valueFor(a.type)])));
    await fc.assert(
      fc.asyncProperty(variables, async (vars) => {
        const result = await gql(document, { tokens, variables: vars as Record<string, unknown> });
        const body = JSON.stringify(result.body);
        expect(result.status, `${field.name} ${body.slice(0, 300)}`).toBeLessThan(500);
        for (const error of result.body.errors ?? []) {
          expect(error.extensions?.code, `${field.name}: ${error.message}`).not.toBe("INTERNAL_SERVER_ERROR");
        }
        expect(body, field.name).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
      }),
      { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
    );
  }
}

describe("fuzzing every GraphQL operation (fixed seed, bounded)", () => {
  it("anonymous: no input makes a 5xx, an INTERNAL_SERVER_ERROR or a stack trace", async () => {
    await fuzz("query", undefined);
    await fuzz("mutation", undefined);
  }, 180_000);

  it("a producer with an event: the same, with the domain reached behind the sign-in", async () => {
    const { user } = await createEventWithTickets();
    const tokens = await startSession(await getDb(), { ...user, roles: ["producer"] }, new Date());
    await fuzz("query", tokens);
    await fuzz("mutation", tokens);
  }, 180_000);
});
