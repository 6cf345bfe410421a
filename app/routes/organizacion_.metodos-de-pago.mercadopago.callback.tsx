import { isFormError } from "#app/lib/domain-errors.server";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { CONNECTED_MESSAGE, finishMercadoPagoConnection } from "#server/payments/mercadopago-accounts";
import { errorResponse } from "#app/lib/backoffice.server";
import { withFlash } from "#app/lib/flash.server";
import { requireUser } from "#app/lib/session.server";

const PAGE = "/organizacion/metodos-de-pago";

/**
 * Where Mercado Pago sends the organizer back after the consent screen
 * (`?code=…&state=…`, or `?error=access_denied`). The domain checks the
 * state and the member, exchanges the code and stores the tokens; then back
 * to /organizacion/metodos-de-pago of that organization with a snackbar.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const params = new URL(request.url).searchParams;
  try {
    const { organizationId } = await finishMercadoPagoConnection(ctx, {
      code: params.get("code") ?? undefined,
      state: params.get("state") ?? undefined,
      error: params.get("error") ?? undefined,
    });
    return redirect(`${PAGE}?organizationId=${organizationId}`, { headers: withFlash(headers, { type: "success", message: CONNECTED_MESSAGE }) });
  } catch (error) {
    if (isFormError(error)) {
      return redirect(PAGE, { headers: withFlash(headers, { type: "error", message: error.message }) });
    }
    throw errorResponse(error);
  }
}
