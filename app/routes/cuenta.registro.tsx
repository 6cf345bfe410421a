import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { register } from "#server/accounts/auth";
import { mailboxLink } from "#app/lib/dev-mailbox.server";
import { flashCookie } from "#app/lib/flash.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { getRequestContext, signedInRedirect } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { FormErrors } from "#app/components/account/Notice";
import { registerFormSchema } from "#app/components/account/schemas";
import { getLightFormProps, getLightInputProps, useLightAccountForm } from "#app/components/account/useLightAccountForm";
import { REGISTER_RULES } from "#app/components/account/light-rules";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";
import { Button } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Crear cuenta · Tribuna" }];

const HIDDEN = ["password"];

/**
 * `register`: creates the account, signs in (cookies `at`/`rt`) and emails the link that confirms the address;
 * then the saved return path or home, where the snackbar says so (and where to read it without SMTP).
 */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: registerFormSchema });
  if (submission.status !== "success") {
    const reply = invalidReply(submission, { hideFields: HIDDEN });
    return data({ result: reply.result }, { status: reply.status });
  }
  const { ctx, headers } = await getRequestContext(request);
  try {
    const registered = await register(ctx, submission.value);
    const response = signedInRedirect(request, registered);
    if (registered.verification) {
      const mailbox = mailboxLink(request, { id: registered.verification.logEmailId });
      const where = mailbox ? ` Como no hay un servidor de correo configurado, lo podés leer en ${mailbox}.` : "";
      response.headers.append("Set-Cookie", flashCookie({ type: "success", message: `¡Listo! Creaste tu cuenta. Te mandamos un correo a ${registered.verification.emailTo} para confirmar tu email.${where}` }));
    }
    return response;
  } catch (error) {
    const reply = domainErrorReply(submission, error, { hideFields: HIDDEN });
    return data({ result: reply.result }, { status: reply.status, headers });
  }
}

export default function RegisterPage() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useLightAccountForm({ rules: REGISTER_RULES, id: "registro", lastResult: actionData?.result });
  const submitting = useIsSubmitting();
  return (
    <AccountPage title="Creá tu cuenta" description="Con tu cuenta comprás entradas más rápido y tenés todas tus entradas en un solo lugar.">
      <Form method="post" {...getLightFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-2 sm:grid-cols-2">
          <Field
            label="Nombre"
            inputProps={{ ...getLightInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
            errors={fields.firstName.errors}
          />
          <Field
            label="Apellido"
            inputProps={{ ...getLightInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
            errors={fields.lastName.errors}
          />
        </div>
        <Field
          label="Email"
          inputProps={{ ...getLightInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
        />
        <Field
          label="Contraseña"
          help="Al menos 8 caracteres."
          inputProps={{ ...getLightInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password.errors}
        />
        <Button type="submit" className="mt-2" pending={submitting} pendingLabel="Creando tu cuenta…">
          Crear cuenta
        </Button>
      </Form>
      <AccountLinks>
        <p>
          ¿Ya tenés cuenta? <Link to="/cuenta/iniciar-sesion">Iniciá sesión</Link>
        </p>
      </AccountLinks>
    </AccountPage>
  );
}
