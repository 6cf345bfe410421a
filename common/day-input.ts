/**
 * What our date controls' inputs say (placeholder, pattern, title), apart from
 * the parsing in days.ts: a page that only draws a date field (the payer
 * form) loads these few strings, not the parsers.
 */
/** What the controls show while empty, and the format their help names. */
export const DATE_INPUT_PLACEHOLDER = "dd/mm/aaaa";
export const DATE_TIME_INPUT_PLACEHOLDER = "dd/mm/aaaa hh:mm";
/** `title` of the controls (browsers add it to the pattern's message; screen readers read it). */
export const DATE_INPUT_TITLE = "Escribí día, mes y año: dd/mm/aaaa (por ejemplo 20/12/2026)";
export const DATE_TIME_INPUT_TITLE = "Escribí día, mes, año y hora: dd/mm/aaaa hh:mm (por ejemplo 20/12/2026 21:30)";

// The `pattern`s take every shape the parsers take (and ISO, which a test or an old link may send); the server has
// the last word. Written for the browsers' `v` flag: `/` and `-` escaped inside classes.
const DAY_SHAPE = String.raw`\d{1,4}[\/.\- ]?\d{1,2}[\/.\- ]?\d{1,4}`;
const TIME_SHAPE = String.raw`\d{1,2}(?:[:.h]?\d{2})?(?::\d{2}(?:\.\d{1,3})?)?(?: ?[hH][sS]?\.?)?`;
export const DATE_INPUT_PATTERN = String.raw`\s*${DAY_SHAPE}\s*`;
export const DATE_TIME_INPUT_PATTERN = String.raw`\s*${DAY_SHAPE}(?:\s*,\s*|\s+|T)?${TIME_SHAPE}\s*`;

/**
 * A day already read and checked (`yyyy-MM-dd`) as the controls show it, "dd/mm/aaaa"; anything else as it came.
 * The home's search shows its days with this alone, so the home does not load the parsers (days.ts).
 */
export function isoDayToInput(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}
