import { pageErrorResponse } from "#app/lib/domain-errors.server";

/**
 * A purchase the request may not read: anonymous without the link's token goes
 * to sign in (and comes back here); anyone else gets a 404 (the purchase is
 * not revealed). Other errors pass through.
 */
export function purchaseAccessError(request: Request, error: unknown, headers: Headers): never {
  throw pageErrorResponse(error, { headers, conceal: true, notFoundText: "No encontramos la compra.", signIn: request });
}
