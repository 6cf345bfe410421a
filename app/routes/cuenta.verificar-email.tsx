import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { verifyEmail } from "#server/accounts/email-verification";
import { GENERIC_ERROR, isDomainError } from "#server/errors";
import { getRequestContext } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { Notice } from "#app/components/account/Notice";
import { buttonClasses } from "#app/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Confirmar tu email · Tribuna" }, { name: "robots", content: "noindex" }];

/**
 * The link of the verification email (decision 115): marks the address verified and joins the purchases made
 * without an account with it. Opening it again says it was already done. No session needed: the link is the proof.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "no-store");
  try {
    const result = await verifyEmail(ctx, { token: new URL(request.url).searchParams.get("token") });
    return data({ ok: true as const, ...result, signedIn: ctx.actor.kind === "user" }, { headers });
  } catch (error) {
    if (!isDomainError(error)) console.error(error);
    return data({ ok: false as const, error: isDomainError(error) ? error.message : GENERIC_ERROR, signedIn: ctx.actor.kind === "user" }, { status: isDomainError(error) ? 400 : 500, headers });
  }
}

export default function VerifyEmailPage() {
  const result = useLoaderData<typeof loader>();
  if (!result.ok) {
    return (
      <AccountPage title="No pudimos confirmar tu email">
        <Notice tone="error">{result.error}</Notice>
        <AccountLinks>
          <Link to="/cuenta/mi-cuenta">Ir a Mi cuenta para pedir otro enlace</Link>
        </AccountLinks>
      </AccountPage>
    );
  }
  return (
    <AccountPage title={result.alreadyVerified ? "Tu email ya estaba confirmado" : "¡Listo! Confirmaste tu email"}>
      <Notice tone="success">
        <p>
          <strong>{result.email}</strong> quedó confirmado en tu cuenta.
        </p>
        <p className="mt-1" data-testid="compras-sumadas">
          {result.joinedOrders === 0
            ? "No había compras hechas sin cuenta con este email para sumar."
            : result.joinedOrders === 1
              ? "Sumamos a tu cuenta 1 compra que habías hecho sin cuenta con este email."
              : `Sumamos a tu cuenta ${result.joinedOrders} compras que habías hecho sin cuenta con este email.`}
        </p>
      </Notice>
      <Link to={result.signedIn ? "/cuenta/mis-tickets" : "/cuenta/iniciar-sesion"} className={buttonClasses("primary", "w-full")}>
        {result.signedIn ? "Ver mis tickets" : "Iniciar sesión"}
      </Link>
    </AccountPage>
  );
}
