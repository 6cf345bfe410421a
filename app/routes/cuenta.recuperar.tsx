import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { recoverPassword } from "#server/accounts/recovery";
import { mailboxLink } from "#app/lib/dev-mailbox.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { getRequestContext, signedInRedirect } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { MailboxNotice } from "#app/components/account/MailboxNotice";
import { FormErrors, Notice } from "#app/components/account/Notice";
import { recoverFormSchema } from "#app/components/account/schemas";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Elegí una contraseña nueva · Tribuna" }];

const HIDDEN = ["password", "code"];

export function loader({ request }: LoaderFunctionArgs) {
  const email = new URL(request.url).searchParams.get("email") ?? "";
  return { email, mailbox: email ? mailboxLink(request, { to: email }) : null };
}

/** `recoverPassword`: a valid code sets the new password and signs in. */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: recoverFormSchema });
  if (submission.status !== "success") {
    const reply = invalidReply(submission, { hideFields: HIDDEN });
    return data({ result: reply.result }, { status: reply.status });
  }
  const { ctx, headers } = await getRequestContext(request);
  try {
    return signedInRedirect(request, await recoverPassword(ctx, submission.value));
  } catch (error) {
    const reply = domainErrorReply(submission, error, { hideFields: HIDDEN });
    return data({ result: reply.result }, { status: reply.status, headers });
  }
}

export default function RecoverPasswordPage() {
  const { email, mailbox } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(recoverFormSchema, { id: "recuperar", lastResult: actionData?.result, defaultValue: { email } });
  const submitting = useIsSubmitting();
  return (
    <AccountPage title="Elegí una contraseña nueva">
      {email && !actionData ? (
        <Notice tone="info">
          <p>
            Si <strong>{email}</strong> tiene una cuenta en Tribuna, te enviamos un código de 6 números. Vence en 15 minutos; revisá también la carpeta de spam.
          </p>
          <MailboxNotice href={mailbox} />
        </Notice>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <Field
          label="Código"
          inputProps={{
            ...getInputProps(fields.code, { type: "text" }),
            inputMode: "numeric",
            autoComplete: "one-time-code",
            maxLength: 6,
          }}
          errors={fields.code.errors}
        />
        <Field
          label="Contraseña nueva"
          help="Al menos 8 caracteres."
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password.errors}
        />
        <Button type="submit" className="mt-2" pending={submitting} pendingLabel="Guardando…">
          Guardar e ingresar
        </Button>
      </Form>
      <AccountLinks>
        <Link to={email ? `/cuenta/solicitar-recuperacion?email=${encodeURIComponent(email)}` : "/cuenta/solicitar-recuperacion"}>
          Pedir otro código
        </Link>
      </AccountLinks>
    </AccountPage>
  );
}
