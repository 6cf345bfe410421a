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
