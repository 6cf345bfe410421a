import { redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { logout } from "#server/accounts/auth";
import { safeReturnPath } from "#server/accounts/sign-in-link";
import { readTokens } from "#server/auth/request-auth";
import { getRequestContext, signedOutHeaders } from "#app/lib/session.server";
import { AccountPage } from "#app/components/account/AccountPage";
import { useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button, buttonClasses } from "#app/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Cerrar sesión · Tribuna" }];

/**
 * `logout` (decision 4): try the server call, and clear `at`/`rt` whether or not
 * it worked; then home, or the `redirectTo` field when it is a path of ours.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  try {
    const { ctx } = await getRequestContext(request);
    await logout(ctx, readTokens(request).refreshToken);
  } catch (error) {
    console.warn("logout: the session could not be ended on the server; cookies are cleared anyway", error);
  }
  const to = safeReturnPath(String(formData.get("redirectTo") ?? "")) ?? "/";
  return redirect(to, { headers: signedOutHeaders() });
}

/** Opening the address shows a confirmation; only the form's POST signs out. */
export default function LogoutPage() {
  const submitting = useIsSubmitting();
  return (
    <AccountPage title="Cerrar sesión" description="¿Querés cerrar tu sesión en este dispositivo?">
      <Form method="post" id="cerrar-sesion" className="flex flex-col gap-3 sm:flex-row">
        <Button type="submit" pending={submitting} pendingLabel="Cerrando sesión…">
          Cerrar sesión
        </Button>
        <Link to="/" className={buttonClasses("secondary")}>
          Cancelar
        </Link>
      </Form>
    </AccountPage>
  );
}
