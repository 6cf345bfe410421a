import type { z } from "zod";
import { Invalid } from "#server/errors";

/** Parses domain input; bad input becomes Invalid with Spanish messages per field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  throw new Invalid(fieldErrors);
}

/**
 * What a door (a route's form, a GraphQL resolver, a job) may hand a domain
 * function whose schema is `S`: the schema's input keys, so a misspelled or
 * unknown key does not compile, with every value loosened the way the doors
 * actually send it — literal unions (enums) as plain strings, null where
 * GraphQL sends null, and every key optional (a form's fields arrive as a
 * loose record). The runtime parse (`parseInput`) still decides what is
 * present and valid, and answers with the Spanish message next to the field.
 */
export type DomainInput<S extends z.ZodType> = Loosen<z.input<S>>;

type Loosen<T> = T extends string
  ? string
  : T extends Date
    ? T | string
    : T extends readonly (infer U)[]
      ? Loosen<U>[]
      : T extends object
        ? { [K in keyof T]?: Loosen<T[K]> | null }
        : T;
