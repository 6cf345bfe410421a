import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { impersonatedLogin } from "#server/accounts/auth";
import { tokenCookies } from "#server/auth/cookies";
import { isDomainError } from "#server/errors";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { requireUser } from "#app/lib/session.server";
import { AccountPage } from "#app/components/account/AccountPage";
import { FormErrors, Notice } from "#app/components/account/Notice";
import { emailFormSchema } from "#app/components/account/schemas";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Ingresar como otra persona · Tribuna" }, { name: "robots", content: "noindex" }];

/** Signed in only; the form is for admins (the domain checks it again on every use). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, headers } = await requireUser(request);
  return data({ allowed: user.isAdmin }, { status: user.isAdmin ? 200 : 403, headers });
}

/** `impersonatedLogin`: the admin's browser gets the other person's tokens (audited by the domain). */
export async function action({ request }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: emailFormSchema });
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result }, { status: reply.status, headers });
  }
  try {
    const tokens = await impersonatedLogin(ctx, submission.value);
    const out = new Headers();
    for (const cookie of tokenCookies(tokens)) out.append("Set-Cookie", cookie);
    return redirect("/", { headers: out });
  } catch (error) {
    // "No user with that email" goes next to the field; "only admins" is about the person, above the form.
    const forbidden = isDomainError(error) && error.code === "FORBIDDEN";
    const reply = domainErrorReply(submission, error, { messageField: forbidden ? undefined : "email" });
    return data({ result: reply.result }, { status: reply.status, headers });
  }
}

export default function ImpersonatePage() {
  const { allowed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(emailFormSchema, { id: "imperson", lastResult: actionData?.result });
  const submitting = useIsSubmitting();

  if (!allowed) {
    return (
      <AccountPage title="Ingresar como otra persona">
        <Notice tone="error">No tenés permiso para ver esta página. Solo un administrador puede ingresar como otra persona.</Notice>
        <Link to="/" className={buttonClasses("secondary")}>
          Volver al inicio
        </Link>
      </AccountPage>
    );
  }

  return (
    <AccountPage
      title="Ingresar como otra persona"
      description="Para ayudar a alguien: vas a ver Tribuna como esa persona hasta que cierres sesión. Queda registrado."
    >
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field label="Email de la persona" inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }} errors={fields.email.errors} />
        <Button type="submit" pending={submitting} pendingLabel="Ingresando…">
          Ingresar como esta persona
        </Button>
      </Form>
    </AccountPage>
  );
}
