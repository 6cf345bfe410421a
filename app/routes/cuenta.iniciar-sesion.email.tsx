import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { login } from "#server/accounts/auth";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { getRequestContext, signedInRedirect } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { FormErrors, Notice } from "#app/components/account/Notice";
import { loginFormSchema } from "#app/components/account/schemas";
import { getLightFormProps, getLightInputProps, useLightAccountForm } from "#app/components/account/useLightAccountForm";
import { LOGIN_RULES } from "#app/components/account/light-rules";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";
import { Button } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Iniciar sesión con email · Tribuna" }];

const HIDDEN = ["password"];

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { forcedLogin: url.searchParams.get("forcedLogin") === "true", email: url.searchParams.get("email") ?? "" };
}

/** `login`: on success the saved return path (cookie `loggin-callback`, then cleared) or home. */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: loginFormSchema });
  if (submission.status !== "success") {
    const reply = invalidReply(submission, { hideFields: HIDDEN });
    return data({ result: reply.result, limited: false }, { status: reply.status });
  }
  const { ctx, headers } = await getRequestContext(request);
  try {
    return signedInRedirect(request, await login(ctx, submission.value));
  } catch (error) {
    const reply = domainErrorReply(submission, error, { hideFields: HIDDEN });
    return data({ result: reply.result, limited: reply.code === "TOO_MANY_REQUESTS" }, { status: reply.status, headers });
  }
}

export default function EmailLoginPage() {
  const { forcedLogin, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useLightAccountForm({
    rules: LOGIN_RULES,
    id: "iniciar-sesion-email",
    lastResult: actionData?.result,
    defaultValue: { email },
  });
  const submitting = useIsSubmitting();
  return (
    <AccountPage title="Iniciá sesión">
      {forcedLogin ? (
        <Notice tone="info">
          <strong>Para continuar necesitás iniciar sesión.</strong> Cuando ingreses te llevamos de vuelta a donde estabas.
        </Notice>
      ) : null}
      <Form method="post" {...getLightFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        {actionData?.limited ? (
          <p className="-mt-2 mb-2 text-sm text-[var(--muted)]">
            Mientras tanto podés <Link to="/cuenta/iniciar-sesion" className="text-[var(--accent)] underline">ingresar con un enlace a tu email</Link>.
          </p>
        ) : null}
        <Field
          label="Email"
          inputProps={{ ...getLightInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <Field
          label="Contraseña"
          inputProps={{ ...getLightInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.password.errors}
        />
        <Button type="submit" className="mt-2" pending={submitting} pendingLabel="Ingresando…">
          Ingresar
        </Button>
      </Form>
      <AccountLinks>
        <Link to="/cuenta/solicitar-recuperacion">¿Olvidaste tu contraseña?</Link>
        <p>
          ¿No tenés cuenta? <Link to="/cuenta/registro">Creá una</Link>
        </p>
        <Link to="/cuenta/iniciar-sesion">Otras formas de ingresar</Link>
      </AccountLinks>
    </AccountPage>
  );
}
