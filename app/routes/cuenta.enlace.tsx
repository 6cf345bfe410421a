import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { BAD_LINK, finishSignInFromLink, inspectSignInLink, registerFromLink } from "#server/accounts/sign-in-link";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { getRequestContext, signedInRedirect } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { FormErrors, Notice } from "#app/components/account/Notice";
import { linkSignUpFormSchema } from "#app/components/account/schemas";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Ingresar con tu enlace · Tribuna" }, { name: "robots", content: "noindex" }];

/**
 * The page an emailed sign-in link opens. Opening it does not use the link
 * (mail scanners open links too): the person confirms with a button, or, for
 * a new email, types their name to create the account.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { ctx, headers } = await getRequestContext(request);
  const info = token ? await inspectSignInLink(ctx, token) : null;
  if (!info) return data({ kind: "invalid" as const, message: BAD_LINK, token: "", email: "" }, { status: 410, headers });
  return data({ kind: info.userFound ? ("signin" as const) : ("register" as const), message: null, token, email: info.email }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const { ctx, headers } = await getRequestContext(request);

  if (formData.get("intent") === "signin") {
    const submission = parseWithZod(formData, { schema: linkSignUpFormSchema.pick({ token: true }) });
    try {
      const { returnTo, ...tokens } = await finishSignInFromLink(ctx, { token: String(formData.get("token") ?? "") });
      return signedInRedirect(request, tokens, { fallback: returnTo });
    } catch (error) {
      const reply = domainErrorReply(submission, error, { fields: [] });
      return data({ result: reply.result }, { status: reply.status, headers });
    }
  }

  const submission = parseWithZod(formData, { schema: linkSignUpFormSchema });
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result }, { status: reply.status, headers });
  }
  try {
    const { returnTo, ...tokens } = await registerFromLink(ctx, submission.value);
    return signedInRedirect(request, tokens, { fallback: returnTo });
  } catch (error) {
    const reply = domainErrorReply(submission, error, { fields: ["firstName", "lastName"] });
    return data({ result: reply.result }, { status: reply.status, headers });
  }
}

export default function SignInLinkPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(linkSignUpFormSchema, {
    id: "enlace",
    lastResult: actionData?.result,
    defaultValue: { token: page.token },
  });
  const submitting = useIsSubmitting();

  if (page.kind === "invalid") {
    return (
      <AccountPage title="El enlace no sirve">
        <Notice tone="error">{page.message}</Notice>
        <Link to="/cuenta/iniciar-sesion" className={buttonClasses("primary", "w-full")}>
          Pedir un enlace nuevo
        </Link>
      </AccountPage>
    );
  }

  if (page.kind === "signin") {
    return (
      <AccountPage title="Ingresá a Tribuna" description={<>Vas a ingresar como <strong>{page.email}</strong>.</>}>
        <Form method="post" id="enlace-ingresar" className="flex flex-col gap-2">
          <FormErrors id="enlace-ingresar-error" errors={actionData?.result.error?.[""]} />
          <input type="hidden" name="token" value={page.token} />
          <Button type="submit" name="intent" value="signin" pending={submitting} pendingLabel="Ingresando…">
            Ingresar
          </Button>
        </Form>
        <AccountLinks>
          <Link to="/cuenta/iniciar-sesion">¿No sos vos? Ingresá de otra forma</Link>
        </AccountLinks>
      </AccountPage>
    );
  }

  return (
    <AccountPage
      title="Terminá de crear tu cuenta"
      description={<>Tu cuenta va a ser <strong>{page.email}</strong>. Solo nos falta tu nombre.</>}
    >
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="token" value={page.token} />
        <div className="grid gap-2 sm:grid-cols-2">
          <Field
            label="Nombre"
            inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
            errors={fields.firstName.errors}
          />
          <Field
            label="Apellido"
            inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
            errors={fields.lastName.errors}
          />
        </div>
        <Button type="submit" className="mt-2" pending={submitting} pendingLabel="Creando tu cuenta…">
          Crear mi cuenta
        </Button>
      </Form>
    </AccountPage>
  );
}
