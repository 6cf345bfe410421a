import { formToObject } from "#app/lib/backoffice.server";

/** The coupon form's values → the domain's input; no ticket checked = all of the event. */
export function couponInput(values: Record<string, string>) {
  const input = formToObject(values) as Record<string, unknown>;
  if (!Array.isArray(input.ticketTypeIds)) input.ticketTypeIds = [];
  return input;
}

/** `ticketTypeIds.0` (a bad id) is about the checkbox group. */
export const ticketKey = (key: string) => (key.startsWith("ticketTypeIds") ? "ticketTypeIds" : key);
