import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { verifySecondFactorForm } from "#common/two-factor";
import { safeReturnPath } from "#server/accounts/sign-in-link";
import { REMEMBERED_DEVICE_DAYS, rememberThisDevice, twoFactorStatus, verifySecondFactor } from "#server/accounts/two-factor";
import { trustedDeviceCookie } from "#server/auth/cookies";
import { withFlash } from "#app/lib/flash.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { requireUser } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { FormErrors } from "#app/components/account/Notice";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Confirmá que sos vos · Tribuna" }];

/** Where a sensitive action sends someone who has not proved the second factor on this device: then back (`returnTo`). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const returnTo = safeReturnPath(new URL(request.url).searchParams.get("returnTo")) ?? "/cuenta/seguridad";
  const status = await twoFactorStatus(ctx);
  if (!status.enabled) throw redirect("/cuenta/seguridad", { headers: withFlash(headers, { type: "error", message: "Primero activá la verificación en dos pasos." }) });
  return data({ returnTo, rememberDays: REMEMBERED_DEVICE_DAYS }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const returnTo = safeReturnPath(new URL(request.url).searchParams.get("returnTo")) ?? "/cuenta/seguridad";
  const submission = parseWithZod(await request.formData(), { schema: verifySecondFactorForm });
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result }, { status: reply.status, headers });
  }
  try {
    await verifySecondFactor(ctx, { code: submission.value.code });
    if (submission.value.rememberDevice) {
      const { token, expiresAt } = await rememberThisDevice(ctx);
      headers.append("Set-Cookie", trustedDeviceCookie(token, Math.floor((expiresAt.getTime() - ctx.now.getTime()) / 1000)));
    }
  } catch (error) {
    const reply = domainErrorReply(submission, error);
    return data({ result: reply.result }, { status: reply.status, headers });
  }
  return redirect(returnTo, { headers: withFlash(headers, { type: "success", message: "¡Listo! Confirmaste que sos vos." }) });
}

export default function VerifyPage() {
  const { rememberDays } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(verifySecondFactorForm, { id: "verificacion", lastResult: actionData?.result });
  const submitting = useIsSubmitting();
  return (
    <AccountPage title="Confirmá que sos vos" description="Para seguir, escribí el código que muestra tu app de autenticación.">
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label="Código"
          help="Los 6 números de tu app, o uno de tus códigos de recuperación."
          inputProps={{ ...getInputProps(fields.code, { type: "text" }), autoComplete: "one-time-code", spellCheck: false, autoFocus: true }}
          errors={fields.code.errors}
        />
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" name={fields.rememberDevice.name} className="mt-0.5 size-4 accent-primary-500" />
          <span>
            Recordar este navegador por {rememberDays} días. No lo marques en una computadora compartida.
          </span>
        </label>
        <Button type="submit" pending={submitting} pendingLabel="Verificando…">
          Confirmar
        </Button>
      </Form>
      <AccountLinks>
        <Link to="/cuenta/seguridad">¿Perdiste el celular? Usá un código de recuperación arriba, o revisá la seguridad de tu cuenta</Link>
      </AccountLinks>
    </AccountPage>
  );
}
