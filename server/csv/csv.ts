/** A spreadsheet cell from a CSV value: quoted, and a leading = + - @ neutralised so it is never a formula. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
