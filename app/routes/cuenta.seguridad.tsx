import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { twoFactorCodeForm } from "#common/two-factor";
import { formatDateTime } from "#common/dates";
import {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  forgetRememberedDevices,
  pendingTwoFactorEnrolment,
  rememberedDevices,
  startTwoFactorEnrolment,
  twoFactorStatus,
} from "#server/accounts/two-factor";
import { isDomainError } from "#server/errors";
import { trustedDeviceCookie } from "#server/auth/cookies";
import { withFlash } from "#app/lib/flash.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { requireUser } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { FormErrors, Notice } from "#app/components/account/Notice";
import { ResultRegion } from "#app/components/ui/ResultRegion";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Seguridad · Tribuna" }];

/**
 * Two-factor sign-in (decision 100): turn it on with an authenticator app,
 * keep the recovery codes, turn it off. Plain forms: it works without
 * JavaScript, the QR is an inline SVG drawn on the server.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const status = await twoFactorStatus(ctx);
  const pending = status.enabled ? null : await pendingTwoFactorEnrolment(ctx);
  const devices = status.enabled ? await rememberedDevices(ctx) : { count: 0, thisDeviceUntil: null };
  return data(
    {
      status: { enabled: status.enabled, verifiedUntil: status.verifiedUntil ? formatDateTime(status.verifiedUntil) : null, recoveryCodesLeft: status.recoveryCodesLeft },
      pending: pending ? { secret: pending.secret, qrSvg: pending.qrSvg } : null,
      devices: { count: devices.count, thisDeviceUntil: devices.thisDeviceUntil ? formatDateTime(devices.thisDeviceUntil) : null },
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "start") {
    try {
      await startTwoFactorEnrolment(ctx);
    } catch (error) {
      // Already on (a second tab, a repeated post): back to the page, which shows how it is now, with the reason.
      if (!isDomainError(error)) throw error;
      return redirect("/cuenta/seguridad", { headers: withFlash(headers, { type: "error", message: error.message }) });
    }
    return redirect("/cuenta/seguridad#activar", { headers });
  }
  if (intent === "forget-devices") {
    const count = await forgetRememberedDevices(ctx);
    headers.append("Set-Cookie", trustedDeviceCookie("", 0));
    const message = count === 1 ? "Olvidamos el dispositivo recordado." : `Olvidamos los ${count} dispositivos recordados.`;
    return redirect("/cuenta/seguridad", { headers: withFlash(headers, { type: "success", message: count ? message : "No había dispositivos recordados." }) });
  }
  const submission = parseWithZod(formData, { schema: twoFactorCodeForm });
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result, recoveryCodes: null }, { status: reply.status, headers });
  }
  try {
    if (intent === "disable") {
      await disableTwoFactor(ctx, submission.value);
      return redirect("/cuenta/seguridad", { headers: withFlash(headers, { type: "success", message: "Desactivaste la verificación en dos pasos." }) });
    }
    const { recoveryCodes } = await confirmTwoFactorEnrolment(ctx, submission.value);
    return data({ result: null, recoveryCodes }, { headers });
  } catch (error) {
    const reply = domainErrorReply(submission, error);
    return data({ result: reply.result, recoveryCodes: null }, { status: reply.status, headers });
  }
}

function CodeForm({ intent, label, id }: { intent: "confirm" | "disable"; label: string; id: string }) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(twoFactorCodeForm, { id, lastResult: actionData?.result });
  const submitting = useIsSubmitting();
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label="Código"
        help={intent === "confirm" ? "Los 6 números que muestra tu app ahora." : "Los 6 números que muestra tu app ahora, o un código de recuperación."}
        inputProps={{ ...getInputProps(fields.code, { type: "text" }), autoComplete: "one-time-code", inputMode: "text", spellCheck: false }}
        errors={fields.code.errors}
      />
      <Button type="submit" name="intent" value={intent} pending={submitting} pendingLabel="Verificando…" variant={intent === "disable" ? "secondary" : undefined}>
        {label}
      </Button>
    </Form>
  );
}

/** Every message of a refused submit (form-level and per field), for the summary at the top. */
function errorsOf(reply: { result?: { error?: Record<string, string[] | null> | null } | null } | undefined): string[] {
  return Object.values(reply?.result?.error ?? {}).flatMap((list) => list ?? []).filter(Boolean);
}

export default function SecurityPage() {
  const { status, pending, devices } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();

  if (actionData?.recoveryCodes) {
    return (
      <AccountPage title="Guardá tus códigos de recuperación" description="La verificación en dos pasos quedó activada.">
        <p className="text-sm">
          Si perdés el celular, cada uno de estos códigos te deja entrar una sola vez. Guardalos en un lugar seguro: no los vamos a volver a mostrar.
        </p>
        <ol className="mt-4 grid grid-cols-2 gap-2 font-mono text-base" data-testid="recovery-codes">
          {actionData.recoveryCodes.map((code) => (
            <li key={code} className="rounded-lg bg-[var(--surface-2,var(--surface))] px-3 py-2 text-center ring-1 ring-[var(--border)]">
              {code}
            </li>
          ))}
        </ol>
        <AccountLinks>
          <Link to="/cuenta/seguridad">Listo, ya los guardé</Link>
        </AccountLinks>
      </AccountPage>
    );
  }

  return (
    <AccountPage
      title="Seguridad"
      description="La verificación en dos pasos protege lo que mueve plata o cambia permisos: para conectar Mercado Pago, pedir extracciones y cambiar roles del equipo te pedimos además un código de tu app."
      wide
    >
      {/* A refused code, first thing on the page: on a phone the form sits below the QR (decision 114). */}
      <ResultRegion reply={actionData} label="Resultado">
        {errorsOf(actionData).length ? (
          <Notice tone="error">
            <a href={status.enabled ? "#desactivar-titulo" : "#activar"} className="underline">
              {errorsOf(actionData)[0]}
            </a>
          </Notice>
        ) : null}
      </ResultRegion>
      {status.enabled ? (
        <section aria-labelledby="dos-pasos-activa" className="flex flex-col gap-4">
          <h2 id="dos-pasos-activa" className="text-lg font-semibold">
            Verificación en dos pasos: activada
          </h2>
          <p className="text-sm" data-testid="two-factor-status">
            {status.verifiedUntil
              ? `En este dispositivo ya la confirmaste: no te la pedimos de nuevo hasta las ${status.verifiedUntil}.`
              : "En este dispositivo todavía no la confirmaste: te la vamos a pedir antes de una acción sensible."}{" "}
            Te quedan {status.recoveryCodesLeft} códigos de recuperación.
          </p>
          {devices.count ? (
            <Form method="post" className="flex flex-col items-start gap-2">
              <p className="text-sm" data-testid="remembered-devices">
                {devices.thisDeviceUntil
                  ? `Este navegador está recordado: no te pedimos el código hasta el ${devices.thisDeviceUntil}.`
                  : "Este navegador no está recordado."}{" "}
                {devices.count === 1 ? "Tenés 1 dispositivo recordado." : `Tenés ${devices.count} dispositivos recordados.`}
              </p>
              <Button type="submit" name="intent" value="forget-devices" variant="secondary">
                Olvidar los dispositivos recordados
              </Button>
            </Form>
          ) : null}
          <details className="rounded-xl border border-[var(--border)] p-4" open={errorsOf(actionData).length > 0 || undefined}>
            <summary id="desactivar-titulo" className="cursor-pointer font-medium">Desactivar la verificación en dos pasos</summary>
            <div className="mt-3">
              <CodeForm intent="disable" id="desactivar" label="Desactivar" />
            </div>
          </details>
        </section>
      ) : pending ? (
        <section id="activar" aria-labelledby="activar-titulo" className="flex flex-col gap-4">
          <h2 id="activar-titulo" className="text-lg font-semibold">
            Activá la verificación en dos pasos
          </h2>
          <ol className="list-decimal space-y-1 pl-5 text-sm">
            <li>Abrí tu app de autenticación (Google Authenticator, Authy, 1Password, Microsoft Authenticator…).</li>
            <li>Escaneá este código QR, o cargá la clave a mano.</li>
            <li>Escribí los 6 números que te muestra la app.</li>
          </ol>
          {/* A white card: QR readers need dark modules on a light background, in both themes. */}
          <div className="mx-auto w-56 rounded-xl bg-white p-3" role="img" aria-label="Código QR para tu app de autenticación" dangerouslySetInnerHTML={{ __html: pending.qrSvg }} />
          <p className="text-center text-sm">
            Clave: <code className="break-all font-mono" data-testid="two-factor-secret">{pending.secret}</code>
          </p>
          <CodeForm intent="confirm" id="confirmar" label="Activar" />
        </section>
      ) : (
        <Form method="post" className="flex flex-col gap-3">
          <p className="text-sm">Vas a necesitar una app de autenticación en tu celular.</p>
          <Button type="submit" name="intent" value="start">
            Empezar
          </Button>
        </Form>
      )}
      <AccountLinks>
        <Link to="/cuenta/mi-cuenta">Volver a Mi cuenta</Link>
      </AccountLinks>
    </AccountPage>
  );
}
