/**
 * Control characters (C0 and DEL) in text a stranger sends: PostgreSQL
 * refuses NUL in text outright, and the rest only ever arrive by mistake or
 * to break something. Tab, newline and carriage return are fine where a
 * field is multi-line (descriptions, messages); nowhere else.
 *
 * The same rule runs at every door: the HTTP server (paths, query strings,
 * form bodies), GraphQL (variables and string literals) and the field
 * schemas below, which turn it into a message next to the field.
 */
const ANY_CONTROL = /[\u0000-\u001F\u007F]/;
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const CONTROL_CHARACTER_MESSAGE = "Este campo no puede contener caracteres de control";

export function hasControlCharacters(value: string, options: { multiLine?: boolean } = {}): boolean {
  return (options.multiLine ? CONTROL_BUT_LINE_BREAKS : ANY_CONTROL).test(value);
}

/**
 * The first string inside `value` (objects and arrays walked) with control
 * characters, as a dotted path ("input.payer.email", "items.0.name"), or
 * null. Line breaks pass: a request does not know which fields are
 * multi-line; the field schemas refuse them in single-line fields.
 */
export function findControlCharacters(value: unknown, path: string[] = [], depth = 0): string | null {
  const found = keysToControlCharacters(value, depth);
  return found === null ? null : [...path, ...found].join(".");
}

/**
 * The keys from `value` down to the first string (or key) with control characters, outermost first, or
 * null. It walks every variable of every GraphQL request: nothing is allocated unless something is found.
 */
function keysToControlCharacters(value: unknown, depth: number): string[] | null {
  if (typeof value === "string") return CONTROL_BUT_LINE_BREAKS.test(value) ? [] : null;
  if (depth > 32 || value === null || typeof value !== "object") return null;
  for (const key of Object.keys(value)) {
    if (CONTROL_BUT_LINE_BREAKS.test(key)) return [key];
    const found = keysToControlCharacters((value as Record<string, unknown>)[key], depth + 1);
    if (found !== null) {
      found.unshift(key);
      return found;
    }
  }
  return null;
}
