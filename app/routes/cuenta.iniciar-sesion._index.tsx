import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GOOGLE_ACCOUNT_MISMATCH, GOOGLE_EMAIL_NOT_VERIFIED } from "#server/accounts/google";
import { createSignInLink } from "#server/accounts/sign-in-link";
import { CALLBACK_COOKIE, parseCookies } from "#server/auth/cookies";
import { googleEnabled } from "#server/accounts/google-oauth";
import { mailboxLink } from "#app/lib/dev-mailbox.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { getRequestContext } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { MailboxNotice } from "#app/components/account/MailboxNotice";
import { FormErrors, Notice } from "#app/components/account/Notice";
import { emailFormSchema } from "#app/components/account/schemas";
import { getLightFormProps, getLightInputProps, useLightAccountForm } from "#app/components/account/useLightAccountForm";
import { EMAIL_RULES } from "#app/components/account/light-rules";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Iniciar sesión · Tribuna" }];

/** Why a Google sign-in came back here (`?error=`), in words. */
const GOOGLE_ERRORS: Record<string, string> = {
  google: "No pudimos ingresar con Google. Probá de nuevo o elegí otra forma de ingresar.",
  "google-email": GOOGLE_EMAIL_NOT_VERIFIED,
  "google-account": GOOGLE_ACCOUNT_MISMATCH,
};

export function loader({ request }: LoaderFunctionArgs) {
  const error = new URL(request.url).searchParams.get("error");
  return {
    googleEnabled: googleEnabled(),
    error: error ? (GOOGLE_ERRORS[error] ?? null) : null,
  };
}

/** `createSignInLink`: emails a one-time link that comes back to the saved return path. */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: emailFormSchema });
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result, sent: null }, { status: reply.status });
  }
  const { ctx, headers } = await getRequestContext(request);
  try {
    const returnTo = parseCookies(request.headers.get("cookie"))[CALLBACK_COOKIE] ?? null;
    const sent = await createSignInLink(ctx, { email: submission.value.email, returnTo });
    return data({ result: submission.reply(), sent: { ...sent, mailbox: mailboxLink(request, { id: sent.logEmailId }) } }, { headers });
  } catch (error) {
    const reply = domainErrorReply(submission, error);
    return data({ result: reply.result, sent: null }, { status: reply.status, headers });
  }
}

export default function SignInPage() {
  const { googleEnabled, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const sent = actionData?.sent;
  const [form, fields] = useLightAccountForm({ rules: EMAIL_RULES, id: "enlace-email", lastResult: actionData?.result });
  const submitting = useIsSubmitting();

  return (
    <AccountPage title="Iniciá sesión" description="Elegí cómo querés ingresar a Tribuna.">
      {error ? <Notice tone="error">{error}</Notice> : null}

      <div className="flex flex-col gap-3">
        <Link to="/cuenta/iniciar-sesion/email" className={buttonClasses("secondary", "w-full")}>
          Con email y contraseña
        </Link>
        {googleEnabled ? (
          <Link to="/cuenta/google" reloadDocument className={buttonClasses("secondary", "w-full")}>
            Con Google
          </Link>
        ) : null}
      </div>

      <section aria-labelledby="enlace-titulo" className="mt-8 border-t border-[var(--border)] pt-6">
        <h2 id="enlace-titulo" className="text-lg font-bold">
          Con un enlace a mi email
        </h2>
        {sent ? (
          <Notice tone="success">
            <p className="font-bold">Te enviamos un enlace a {sent.emailTo}</p>
            <p className="mt-1">
              {sent.userFound
                ? "Abrilo desde tu correo para ingresar a tu cuenta."
                : "Todavía no tenés cuenta con ese email: abrí el enlace para crearla en un paso."}{" "}
              Vence en 30 minutos y sirve una sola vez.
            </p>
            <MailboxNotice href={sent.mailbox} />
            <p className="mt-2">
              <Link to="/cuenta/iniciar-sesion" className="underline">
                Usar otro email
              </Link>
            </p>
          </Notice>
        ) : (
          <>
            <p className="mt-1 mb-4 text-sm text-[var(--muted)]">
              Sin contraseña: te mandamos un enlace y entrás con un toque. Si no tenés cuenta, la creamos.
            </p>
            <Form method="post" {...getLightFormProps(form)} className="flex flex-col gap-2">
              <FormErrors id={form.errorId} errors={form.errors} />
              <Field
                label="Email"
                inputProps={{ ...getLightInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
                errors={fields.email.errors}
              />
              <Button type="submit" pending={submitting} pendingLabel="Enviando…">
                Enviarme el enlace
              </Button>
            </Form>
          </>
        )}
      </section>

      <AccountLinks>
        <p>
          ¿No tenés cuenta? <Link to="/cuenta/registro">Creá una</Link>
        </p>
      </AccountLinks>
    </AccountPage>
  );
}
