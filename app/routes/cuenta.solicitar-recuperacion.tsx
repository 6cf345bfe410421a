import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { recoverPasswordCode } from "#server/accounts/recovery";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { getRequestContext } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { FormErrors } from "#app/components/account/Notice";
import { emailFormSchema } from "#app/components/account/schemas";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Recuperar contraseña · Tribuna" }];

export function loader({ request }: LoaderFunctionArgs) {
  return { email: new URL(request.url).searchParams.get("email") ?? "" };
}

/**
 * `recoverPasswordCode`: the same answer whether the email has an account or
 * not; then the page where the code is typed.
 */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: emailFormSchema });
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result }, { status: reply.status });
  }
  const { ctx, headers } = await getRequestContext(request);
  try {
    await recoverPasswordCode(ctx, submission.value);
  } catch (error) {
    const reply = domainErrorReply(submission, error);
    return data({ result: reply.result }, { status: reply.status, headers });
  }
  return redirect(`/cuenta/recuperar?email=${encodeURIComponent(submission.value.email)}`, { headers });
}

export default function RequestRecoveryPage() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(emailFormSchema, { id: "solicitar-recuperacion", lastResult: actionData?.result, defaultValue: { email } });
  const submitting = useIsSubmitting();
  return (
    <AccountPage title="Recuperá tu contraseña" description="Te mandamos un código de 6 números a tu email para que elijas una contraseña nueva.">
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <Button type="submit" pending={submitting} pendingLabel="Enviando…">
          Enviarme el código
        </Button>
      </Form>
      <AccountLinks>
        <Link to="/cuenta/recuperar">Ya tengo un código</Link>
        <Link to="/cuenta/iniciar-sesion/email">Volver a iniciar sesión</Link>
      </AccountLinks>
    </AccountPage>
  );
}
